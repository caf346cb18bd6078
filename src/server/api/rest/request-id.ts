import { randomUUID } from 'node:crypto';

/** X-Request-Id: the caller's when it is a sane token, else a new one. */
export function requestIdOf(headers: Headers): string {
  const sent = headers.get('x-request-id');
  return sent && /^[A-Za-z0-9._:-]{1,128}$/.test(sent) ? sent : randomUUID();
}
