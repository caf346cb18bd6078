import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { env } from '@/env';
import { createSchema } from 'zod-openapi';
import { errorEnvelope, errorResponses, requestIdHeader } from './errors';
import { appRouter } from '../routers/app-router';
import { matchRestRoute } from '../rest/rest-routes';
import { authDocument } from './token';
import { publicPaths } from './public';

// OpenAPI 3.1 of the REST interface as served: the bridge's document, with the error
// envelope of docs/DESIGN.md 4 on every error status, the public documents, and the token endpoint
// and its key set on their own server.

type Operation = { responses: Record<string, { headers?: Record<string, unknown> }> };

let cached: OpenAPIObject | undefined;

export function openApiDocument(): OpenAPIObject {
  if (cached) return cached;
  const config = env();
  const document = generateOpenApiDocument(appRouter, {
    title: 'Ecommerce payment orchestration API',
    description:
      'Charges through CARD, YAPE, BANK_TRANSFER, CUOTEALO, PAGOEFECTIVO and QR; queries, cancellation and reversal; refunds. Amounts are strings in cents. Every request carries ALG-API-VERSION: 1709847567.',
    version: '1.0.0',
    openApiVersion: '3.1.0',
    baseUrl: config.baseUrl,
    securitySchemes: {
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: `Access token from POST ${config.authUrl}/token`,
      },
      clientSecretBasic: {
        type: 'http',
        scheme: 'basic',
        description: 'client_secret_basic at the token endpoint: base64 of form-urlencoded client_id, `:`, client_secret',
      },
    },
  });
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of ['get', 'post', 'delete'] as const) {
      const operation = (item as Record<string, Operation | undefined>)[method];
      if (!operation) continue;
      // The success type the REST wrapper answers this operation's errors with.
      const route = matchRestRoute(method.toUpperCase(), path);
      if (route.kind !== 'found') throw new Error(`${method} ${path} is documented but not routed`);
      const success = route.successType;
      const statuses = Object.keys(operation.responses)
        .filter((status) => status !== '200')
        .map(Number);
      operation.responses = {
        200: { ...operation.responses['200'], headers: { 'X-Request-Id': requestIdHeader } },
        ...errorResponses([...new Set([...statuses, 405, 500, 503])].sort(), success),
      };
    }
  }
  const auth = authDocument(config.authUrl, config.baseUrl);
  document.paths = {
    ...document.paths,
    ...(publicPaths() as unknown as OpenAPIObject['paths']),
    ...auth.paths,
  };
  // The bridge's own error schemas are replaced by the envelope above.
  const schemas = Object.fromEntries(
    Object.entries(document.components?.schemas ?? {}).filter(([name]) => !name.startsWith('error.')),
  );
  document.components = {
    ...document.components,
    schemas: {
      ...schemas,
      ...auth.schemas,
      ErrorString: createSchema(errorEnvelope('string')).schema,
      ErrorBoolean: createSchema(errorEnvelope('boolean')).schema,
    },
  };
  document.info.contact = { name: 'Platform support' };
  document.info.license = { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' };
  cached = document;
  return document;
}
