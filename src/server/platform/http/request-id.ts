import { randomUUID } from 'node:crypto';
import type { HeaderReader } from './api-request';

/** X-Request-Id: the caller's when it is a sane token, else a new one. */
export function requestIdOf(headers: HeaderReader): string {
  const sent = headers.get('x-request-id');
  return sent && /^[A-Za-z0-9._:-]{1,128}$/.test(sent) ? sent : randomUUID();
}
