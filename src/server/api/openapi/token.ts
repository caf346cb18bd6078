import { errorResponses, requestIdHeader } from './errors';
import { publicDocument } from './public';
import { SUPPORTED_API_VERSIONS } from '../trpc';

// The token endpoint is a plain route handler (it takes form bodies too), documented by hand
// under its own server entry, {auth_url}, with the key set that verifies its tokens.
const tokenRequest = {
  type: 'object',
  required: ['action', 'grant_type', 'audience', 'client_id', 'client_secret', 'scope'],
  properties: {
    action: { type: 'string', const: 'authorize' },
    grant_type: { type: 'string', const: 'client_credentials' },
    audience: { type: 'string', description: '{base_url} with a trailing slash' },
    client_id: { type: 'string', minLength: 1, maxLength: 128, pattern: '^[^\\u0000]*$' },
    client_secret: { type: 'string', minLength: 1, maxLength: 256 },
    scope: {
      type: 'string',
      maxLength: 512,
      description: 'Space-separated; must include create:token. Values: create:token post:charges get:charges delete:charges',
      examples: ['create:token post:charges get:charges delete:charges'],
    },
  },
};

const jwks = {
  type: 'object',
  required: ['keys'],
  additionalProperties: false,
  properties: {
    keys: {
      type: 'array',
      items: {
        type: 'object',
        description: 'Public ES256 key: never a private member',
        required: ['kty', 'crv', 'x', 'y', 'kid', 'alg', 'use'],
        additionalProperties: false,
        properties: {
          kty: { type: 'string', const: 'EC' },
          crv: { type: 'string', const: 'P-256' },
          x: { type: 'string' },
          y: { type: 'string' },
          kid: { type: 'string' },
          alg: { type: 'string', const: 'ES256' },
          use: { type: 'string', const: 'sig' },
        },
      },
    },
  },
};

/** The paths of {auth_url}: the token endpoint and the keys that verify its tokens. */
export function authPaths(authUrl: string) {
  const servers = [{ url: authUrl, description: 'Token endpoint ({auth_url})' }];
  return {
    '/.well-known/jwks.json': {
      servers,
      ...publicDocument({
        operationId: 'getTokenKeys',
        tag: 'auth',
        summary: 'Public keys that verify access tokens (JWKS)',
        description: 'The ES256 keys of `kid` in access-token headers.',
        content: { 'application/json': { schema: jwks } },
      }),
    },
    '/token': {
      servers,
      post: {
        operationId: 'generateAccessToken',
        tags: ['auth'],
        summary: 'Generate an access token (OAuth 2.0 client_credentials)',
        security: [],
        parameters: [
          {
            name: 'ALG-API-VERSION',
            in: 'header',
            required: true,
            schema: { type: 'string', enum: [...SUPPORTED_API_VERSIONS], examples: ['1709847567'] },
          },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: tokenRequest },
            'application/x-www-form-urlencoded': { schema: tokenRequest },
          },
        },
        responses: {
          200: {
            description: 'Token issued',
            headers: { 'X-Request-Id': requestIdHeader },
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['action', 'success', 'access_token', 'scope', 'expires_in', 'token_type', 'authorization'],
                  additionalProperties: false,
                  properties: {
                    action: { type: 'string' },
                    success: { type: 'boolean' },
                    access_token: { type: 'string', description: 'ES256 JWT; keys at {auth_url}/.well-known/jwks.json' },
                    scope: { type: 'string' },
                    expires_in: { type: 'integer' },
                    token_type: { type: 'string', const: 'Bearer' },
                    authorization: {
                      type: 'object',
                      required: ['meta'],
                      additionalProperties: false,
                      properties: { meta: { $ref: '#/components/schemas/Meta' } },
                    },
                  },
                },
              },
            },
          },
          ...errorResponses([400, 401, 405, 413, 429, 500], 'boolean'),
        },
      },
    },
  };
}
