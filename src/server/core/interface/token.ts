import { z } from 'zod';
import { metaStatus, storable } from './common';

// POST {auth_url}/token (docs/interface.md 4.1, docs/DESIGN.md 5).
import { SCOPES } from '@/server/core/domain/scopes';

export { SCOPES };

/** A requested scope: known names separated by single spaces (create:token is implied, docs/DESIGN.md 5). */
export const SCOPE_PATTERN = new RegExp(`^(${SCOPES.join('|')})( (${SCOPES.join('|')}))*$`);

/**
 * The body as parsed first: types and lengths. The values of action, grant_type, audience and
 * resource, and scope's content, are checked after it (each with its RFC 6749 error) and stated
 * in `acceptedTokenRequest`. client_id and client_secret may come in `Authorization: Basic`
 * instead; the handler puts them in the body before this parse.
 */
export const tokenRequest = z.object({
  action: z.string().optional(),
  grant_type: z.string().min(1),
  audience: z.string().optional(),
  resource: z.union([z.string(), z.array(z.string()).max(4)]).optional(),
  client_id: storable(z.string().min(1).max(128)),
  client_secret: z.string().min(1).max(256),
  scope: z.string().max(512).optional(),
});

/**
 * What the server checks beyond what the document's schema holds (`x-validation-rules`): the
 * document names no instance's address (a client generated against one environment must reach
 * another), so the audience and resource values are rules, not constants.
 */
export const tokenRequestRules = [
  { field: 'audience', rule: 'is `{base_url}/`, the API address of the environment called (`invalid_request`)' },
  { field: 'resource', rule: 'each is `{base_url}`, with or without its trailing slash (`invalid_target`)' },
];

const apiAddress = z.url().meta({ description: '`{base_url}/` (or `{base_url}`)' });

/** A body that gets a token (JSON or form-urlencoded), as the document states it. */
// Not strict: RFC 6749 3.2 has the server ignore parameters it does not know, and it does.
export const acceptedTokenRequest = z.object({
  action: z.literal('authorize').optional().meta({ description: 'The interface sends `authorize`; the default.' }),
  grant_type: z.literal('client_credentials'),
  audience: z
    .url()
    .optional()
    .meta({ description: '`{base_url}/`: the API address of the environment called, with a trailing slash; the default.' }),
  resource: z
    .union([apiAddress, z.array(apiAddress).min(1).max(4)])
    .optional()
    .meta({ description: 'RFC 8707 resource indicator: the API, as `audience`. `invalid_target` otherwise.' }),
  // Documented as the interface sends them; a client on client_secret_basic sends them in
  // Authorization instead (the `clientSecretBasic` security scheme), never in both places.
  client_id: storable(z.string().min(1).max(128)),
  client_secret: z.string().min(1).max(256),
  scope: z
    .string()
    .max(512)
    .regex(SCOPE_PATTERN)
    .optional()
    .meta({
      description: `Space-separated. Values: ${SCOPES.join(' ')}. create:token is implied when left out. Each must be in the credential's set, else invalid_scope. Without it, every scope the credential allows.`,
      examples: [SCOPES.join(' ')],
    }),
});

/**
 * The form-urlencoded body (RFC 6749 4.4.2), where HTTP Basic is the usual client authentication:
 * client_id and client_secret are left out then, so the document does not require them here.
 */
export const acceptedTokenForm = acceptedTokenRequest.partial({ client_id: true, client_secret: true });

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

/** GET {auth_url}/.well-known/oauth-authorization-server: RFC 8414 metadata. */
export const authorizationServerMetadataSchema = z.object({
  issuer: z.url().meta({ description: '{auth_url}: the `iss` of every access token' }),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
  grant_types_supported: z.array(z.literal('client_credentials')),
  response_types_supported: z.array(z.string()).meta({ description: 'Empty: there is no authorization endpoint' }),
  token_endpoint_auth_methods_supported: z.array(z.enum(['client_secret_basic', 'client_secret_post'])),
  scopes_supported: z.array(z.enum(SCOPES)),
  service_documentation: z.url(),
  api_base_url: z.url().meta({ description: 'Not RFC 8414: {base_url}, the default audience and resource' }),
});
