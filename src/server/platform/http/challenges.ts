// WWW-Authenticate challenges (RFC 9110 11.6.1): Bearer on the API's 401 and 403 (RFC 6750 3),
// Basic on the token endpoint when the client authenticated with HTTP Basic (RFC 6749 2.3.1, 5.2).

const REALM = 'pay';

/** A quoted-string: our messages are ASCII without `"` or `\`, escaped anyway (RFC 9110 5.6.4). */
const quoted = (value: string) => `"${value.replace(/["\\]/g, '\\$&')}"`;

export type BearerError =
  { error: 'invalid_token'; description: string } | { error: 'insufficient_scope'; description: string; scope: string };

/**
 * `Bearer realm="pay"` alone when the request carried no bearer token (RFC 6750 3.1: no error code
 * then), with `error`, `error_description` and for a missing scope `scope` otherwise.
 */
export function bearerChallenge(failure?: BearerError): string {
  const params = [`realm=${quoted(REALM)}`];
  if (failure) {
    params.push(`error=${quoted(failure.error)}`, `error_description=${quoted(failure.description)}`);
    if (failure.error === 'insufficient_scope') params.push(`scope=${quoted(failure.scope)}`);
  }
  return `Bearer ${params.join(', ')}`;
}

/** The challenge of a client that failed HTTP Basic authentication at the token endpoint. */
export function basicChallenge(): string {
  return `Basic realm=${quoted(REALM)}, charset="UTF-8", error="invalid_client"`;
}
