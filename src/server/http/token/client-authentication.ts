import { oauthError } from '@/server/modules/access/oauth-error';

// Who the client says it is: HTTP Basic (client_secret_basic, RFC 6749 2.3.1, a MUST for the
// server) or client_id and client_secret in the body (client_secret_post). One method per
// request (RFC 6749 2.3).

export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post';

/** RFC 6749 2.3.1: each half is form-urlencoded before the pair is base64-encoded. */
function formDecoded(value: string): string | null {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

function basicCredentials(authorization: string): { clientId: string; clientSecret: string } {
  const match = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i.exec(authorization);
  if (!match) throw oauthError('invalid_client', 'Authorization must be Basic base64(client_id:client_secret)');
  const pair = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = pair.indexOf(':');
  const clientId = colon > 0 ? formDecoded(pair.slice(0, colon)) : null;
  const clientSecret = colon > 0 ? formDecoded(pair.slice(colon + 1)) : null;
  if (!clientId || !clientSecret) {
    throw oauthError('invalid_client', 'Authorization must be Basic base64(client_id:client_secret)');
  }
  return { clientId, clientSecret };
}

/** How the client authenticates: any Authorization header on the token endpoint claims Basic. */
export function clientAuthMethod(authorization: string | null): ClientAuthMethod {
  return authorization?.trim() ? 'client_secret_basic' : 'client_secret_post';
}

/**
 * The token request's body with the client's credentials in it. Credentials in both the header
 * and the body, or two different client ids, are refused.
 */
export function withClientCredentials(body: unknown, authorization: string | null): unknown {
  if (clientAuthMethod(authorization) === 'client_secret_post') return body;
  const { clientId, clientSecret } = basicCredentials(authorization!.trim());
  const fields = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  if (fields.client_secret !== undefined) {
    throw oauthError(
      'invalid_request',
      'send the client secret once: in Authorization or in the body, not both',
      'client_secret',
    );
  }
  if (fields.client_id !== undefined && fields.client_id !== clientId) {
    throw oauthError('invalid_request', 'client_id differs from the client of the Authorization header', 'client_id');
  }
  return { ...fields, client_id: clientId, client_secret: clientSecret };
}
