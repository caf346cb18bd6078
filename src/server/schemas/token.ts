import { z } from 'zod';
import { metaStatus, storable } from './common';

// POST {auth_url}/token (docs/interface.md 4.1, docs/DESIGN.md 5).
export const SCOPES = ['create:token', 'post:charges', 'get:charges', 'delete:charges'] as const;

/**
 * The body as parsed first: types and lengths. The values of action, grant_type and audience,
 * and scope's content, are checked after it (each with its RFC 6749 error) and stated in
 * `acceptedTokenRequest`.
 */
export const tokenRequest = z.object({
  action: z.string().optional(),
  grant_type: z.string().min(1),
  audience: z.string().optional(),
  client_id: storable(z.string().min(1).max(128)),
  client_secret: z.string().min(1).max(256),
  scope: z.string().max(512).optional(),
});

/** A body that gets a token: the documented request (JSON or form-urlencoded). */
export const acceptedTokenRequest = tokenRequest.extend({
  action: z.literal('authorize'),
  grant_type: z.literal('client_credentials'),
  audience: z.string().meta({ description: '{base_url} with a trailing slash' }),
  scope: z
    .string()
    .max(512)
    .meta({
      description: `Space-separated; must include create:token. Values: ${SCOPES.join(' ')}`,
      examples: [SCOPES.join(' ')],
    }),
});

export const tokenResponse = z.strictObject({
  action: z.string(),
  success: z.boolean(),
  access_token: z.string().meta({ description: 'ES256 JWT; keys at {auth_url}/.well-known/jwks.json' }),
  scope: z.string(),
  expires_in: z.int(),
  token_type: z.literal('Bearer'),
  authorization: z.strictObject({ meta: metaStatus }),
});

export type TokenResponse = z.infer<typeof tokenResponse>;

/** GET {auth_url}/.well-known/jwks.json: the public keys that verify access tokens. */
export const tokenKeySet = z.strictObject({
  keys: z.array(
    z
      .strictObject({
        kty: z.literal('EC'),
        crv: z.literal('P-256'),
        x: z.string(),
        y: z.string(),
        kid: z.string(),
        alg: z.literal('ES256'),
        use: z.literal('sig'),
      })
      .meta({ description: 'Public ES256 key: never a private member' }),
  ),
});
