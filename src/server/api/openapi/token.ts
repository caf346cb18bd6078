import { z } from 'zod';
import { createDocument, type ZodOpenApiPathsObject } from 'zod-openapi';
import {
  acceptedTokenForm,
  acceptedTokenRequest,
  authorizationServerMetadataSchema,
  tokenKeySet,
  tokenRequestRules,
  tokenResponse,
} from '@/server/core/interface/token';
import { errorResponses, requestIdHeader } from './errors';
import { apiVersion } from './headers';
import { publicDocument } from './public';

// The token endpoint is a plain route handler (it takes form bodies too), documented from its
// zod schemas under its own server entry, {auth_url}, with the key set that verifies its tokens.
/** RFC 6749 5.2: the token endpoint's 401 challenges only a client that used HTTP Basic. */
function tokenErrorResponses() {
  const responses = errorResponses([400, 401, 405, 413, 429, 500, 503], 'boolean');
  responses['401'] = {
    ...responses['401']!,
    headers: {
      'X-Request-Id': requestIdHeader,
      'WWW-Authenticate': {
        description:
          'When the client authenticated with HTTP Basic: `Basic realm="pay", charset="UTF-8", error="invalid_client"`',
        required: false,
        schema: { type: 'string' },
      },
    },
  };
  return responses;
}

function paths(authUrl: string, baseUrl: string): ZodOpenApiPathsObject {
  // The same paths are served under {base_url} too, for generators that read only the
  // document's top-level server (docs/DECISIONS.md, "An exact document").
  const servers = [
    { url: authUrl, description: 'Token endpoint ({auth_url})' },
    { url: baseUrl, description: 'The same endpoints under {base_url}' },
  ];
  return {
    '/.well-known/jwks.json': {
      servers,
      ...publicDocument({
        operationId: 'getTokenKeys',
        stored: true,
        tag: 'auth',
        summary: 'Public keys that verify access tokens (JWKS)',
        description: 'The ES256 keys of `kid` in access-token headers.',
        content: { 'application/json': { schema: tokenKeySet } },
      }),
    },
    '/.well-known/oauth-authorization-server': {
      servers,
      ...publicDocument({
        operationId: 'getAuthorizationServerMetadata',
        tag: 'auth',
        summary: 'OAuth 2.0 authorization server metadata (RFC 8414)',
        description:
          'Also at the path-inserted address of RFC 8414 3.1: `/.well-known/oauth-authorization-server/oauth` on the origin.',
        content: { 'application/json': { schema: authorizationServerMetadataSchema } },
      }),
    },
    '/token': {
      servers,
      post: {
        operationId: 'generateAccessToken',
        tags: ['auth'],
        summary: 'Generate an access token (OAuth 2.0 client_credentials)',
        description:
          'Client authentication by `client_id` and `client_secret` in the body (client_secret_post), or by HTTP Basic (client_secret_basic, RFC 6749 2.3.1), in which case the body leaves both out; never both. RFC 6749 5.2 errors add `error` and `error_description`; a failed HTTP Basic answers 401 with a Basic challenge. Also checked: ' +
          tokenRequestRules.map(({ field, rule }) => `\`${field}\` ${rule}`).join('; ') +
          '.',
        'x-validation-rules': tokenRequestRules,
        security: [{}, { clientSecretBasic: [] }],
        requestParams: { header: z.object({ 'ALG-API-VERSION': apiVersion }) },
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: acceptedTokenRequest },
            'application/x-www-form-urlencoded': { schema: acceptedTokenForm },
          },
        },
        responses: {
          200: {
            description: 'Token issued',
            headers: { 'X-Request-Id': requestIdHeader },
            content: { 'application/json': { schema: tokenResponse } },
          },
          ...tokenErrorResponses(),
        },
      },
    },
  };
}

/** The paths of {auth_url} (the token endpoint and the keys that verify its tokens) and the schemas they refer to. */
export function authDocument(authUrl: string, baseUrl: string) {
  const { paths: authPaths, components } = createDocument({
    openapi: '3.1.0',
    info: { title: 'auth', version: '1' },
    paths: paths(authUrl, baseUrl),
  });
  return { paths: authPaths ?? {}, schemas: components?.schemas ?? {} };
}
