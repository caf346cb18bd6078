import { errorResponses } from './openapi-errors';

// The token endpoint is a plain route handler (it takes form bodies too), documented by hand
// under its own server entry, {auth_url}.
const tokenRequest = {
  type: 'object',
  required: ['action', 'grant_type', 'audience', 'client_id', 'client_secret', 'scope'],
  properties: {
    action: { type: 'string', const: 'authorize' },
    grant_type: { type: 'string', const: 'client_credentials' },
    audience: { type: 'string', description: '{base_url} with a trailing slash' },
    client_id: { type: 'string' },
    client_secret: { type: 'string' },
    scope: {
      type: 'string',
      description: 'Space-separated; must include create:token. Values: create:token post:charges get:charges delete:charges',
      examples: ['create:token post:charges get:charges delete:charges'],
    },
  },
};

export function tokenPaths(authUrl: string) {
  return {
    '/webhooks/public-key': {
      get: {
        operationId: 'getCallbackPublicKey',
        tags: ['callbacks'],
        summary: 'Public key that verifies callback signatures',
        description:
          'Every callback POST carries a `signature` header: base64 RSA-SHA512 over the raw body. Verify it with this SPKI PEM key before parsing the body.',
        security: [],
        responses: {
          200: {
            description: 'SPKI PEM public key',
            headers: { 'X-Request-Id': { description: 'The request id', schema: { type: 'string' } } },
            content: { 'application/x-pem-file': { schema: { type: 'string' } } },
          },
          ...errorResponses([405, 500], 'boolean'),
        },
      },
    },
    '/token': {
      servers: [{ url: authUrl, description: 'Token endpoint ({auth_url})' }],
      post: {
        operationId: 'generateAccessToken',
        tags: ['auth'],
        summary: 'Generate an access token (OAuth 2.0 client_credentials)',
        security: [],
        parameters: [
          { name: 'ALG-API-VERSION', in: 'header', required: true, schema: { type: 'string', examples: ['1709847567'] } },
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
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['action', 'success', 'access_token', 'scope', 'expires_in', 'token_type', 'authorization'],
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
