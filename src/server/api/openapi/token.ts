import { z } from 'zod';
import { createDocument, type ZodOpenApiPathsObject } from 'zod-openapi';
import { acceptedTokenRequest, tokenKeySet, tokenResponse } from '@/server/schemas/token';
import { errorResponses, requestIdHeader } from './errors';
import { apiVersion } from './headers';
import { publicDocument } from './public';

// The token endpoint is a plain route handler (it takes form bodies too), documented from its
// zod schemas under its own server entry, {auth_url}, with the key set that verifies its tokens.
function paths(authUrl: string): ZodOpenApiPathsObject {
  const servers = [{ url: authUrl, description: 'Token endpoint ({auth_url})' }];
  return {
    '/.well-known/jwks.json': {
      servers,
      ...publicDocument({
        operationId: 'getTokenKeys',
        tag: 'auth',
        summary: 'Public keys that verify access tokens (JWKS)',
        description: 'The ES256 keys of `kid` in access-token headers.',
        content: { 'application/json': { schema: tokenKeySet } },
      }),
    },
    '/token': {
      servers,
      post: {
        operationId: 'generateAccessToken',
        tags: ['auth'],
        summary: 'Generate an access token (OAuth 2.0 client_credentials)',
        security: [],
        requestParams: { header: z.object({ 'ALG-API-VERSION': apiVersion }) },
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: acceptedTokenRequest },
            'application/x-www-form-urlencoded': { schema: acceptedTokenRequest },
          },
        },
        responses: {
          200: {
            description: 'Token issued',
            headers: { 'X-Request-Id': requestIdHeader },
            content: { 'application/json': { schema: tokenResponse } },
          },
          ...errorResponses([400, 401, 405, 413, 429, 500], 'boolean'),
        },
      },
    },
  };
}

/** The paths of {auth_url} (the token endpoint and the keys that verify its tokens) and the schemas they refer to. */
export function authDocument(authUrl: string) {
  const { paths: authPaths, components } = createDocument({
    openapi: '3.1.0',
    info: { title: 'auth', version: '1' },
    paths: paths(authUrl),
  });
  return { paths: authPaths ?? {}, schemas: components?.schemas ?? {} };
}
