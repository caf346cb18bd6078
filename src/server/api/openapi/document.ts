import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { env } from '@/env';
import { createSchema } from 'zod-openapi';
import { errorEnvelope, errorResponses, requestIdHeader } from './errors';
import { restRouter } from '../routers/rest-router';
import { restPathOf } from '@/server/api/rest-routes';
import { authDocument } from './token';
import { publicPaths } from './public';
import { exactRequests } from './exact-requests';
import { webhookMessage } from '@/server/core/interface/webhook-message';

// OpenAPI 3.1 of the REST interface as served: the bridge's document, with the error
// envelope of docs/DESIGN.md 4 on every error status, the public documents, and the token endpoint
// and its key set on their own server.

type Operation = {
  operationId?: string;
  requestBody?: { required?: boolean };
  responses: Record<string, { headers?: Record<string, unknown>; links?: unknown }>;
};

/** Where a charge's answer leads: its transaction's query and its operation's cancellation. */
const operationOfCharge = {
  merchant_code: '$response.body#/merchant_code',
  merchant_operation_number: '$response.body#/merchant_operation_number',
};
const LINKS: Record<string, Record<string, unknown>> = {
  authorizeCharge: {
    getTransaction: {
      operationId: 'getTransaction',
      parameters: { ...operationOfCharge, transaction_id: '$response.body#/transaction/transaction_id' },
      description: 'The transaction as it stands now',
    },
    cancelOperation: {
      operationId: 'cancelOperation',
      parameters: operationOfCharge,
      description: 'Cancel the operation (PENDIENTE) or reverse it (AUTORIZADO)',
    },
  },
};

let cached: OpenAPIObject | undefined;

export function openApiDocument(): OpenAPIObject {
  if (cached) return cached;
  const config = env();
  const document = generateOpenApiDocument(restRouter, {
    title: 'Ecommerce payment orchestration API',
    description:
      'Charges through CARD, YAPE, BANK_TRANSFER, CUOTEALO, PAGOEFECTIVO and QR; queries, cancellation and reversal; refunds. Amounts are strings in cents. The ALG-API-VERSION header is optional: without it, the default version 1709847567 applies.',
    version: '1.0.0',
    openApiVersion: '3.1.0',
    baseUrl: config.baseUrl,
    securitySchemes: {
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'Access token from POST {auth_url}/token',
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
      const route = restPathOf(path)?.get(method.toUpperCase());
      if (!route) throw new Error(`${method} ${path} is documented but not routed`);
      const success = route.successType;
      // A body the operation can do without (a capture of the whole amount).
      if (route.bodyOptional && operation.requestBody) operation.requestBody.required = false;
      const statuses = Object.keys(operation.responses)
        .filter((status) => status !== '200')
        .map(Number);
      // The bridge lists every security scheme on every protected operation; Basic is the token endpoint's only.
      (operation as { security?: unknown }).security = [{ bearerAuth: [] }];
      const links = LINKS[operation.operationId ?? ''];
      operation.responses = {
        200: { ...operation.responses['200'], headers: { 'X-Request-Id': requestIdHeader }, ...(links ? { links } : {}) },
        ...errorResponses([...new Set([...statuses, 405, 500, 503])].sort(), success),
      };
    }
  }
  exactRequests(document, restRouter._def.procedures);
  const auth = authDocument(config.authUrl, config.baseUrl);
  document.paths = {
    ...document.paths,
    ...(publicPaths() as unknown as OpenAPIObject['paths']),
    ...auth.paths,
  };
  // What the service POSTs to integrators (OpenAPI 3.1 `webhooks`): typed for generated clients.
  const message = createSchema(webhookMessage);
  (document as OpenAPIObject & { webhooks: Record<string, unknown> }).webhooks = {
    delivery: {
      post: {
        operationId: 'receiveDelivery',
        // The receiver's: it authenticates a delivery by its signature headers, described above.
        security: [],
        summary: 'A delivery to a callback URL or a webhook endpoint',
        description:
          "To a `callback_url`: signed as `GET /webhooks/keys` says (`signature`, `signature-key-id`, `signature-timestamp`, `timestamp-signature`). To a webhook endpoint: Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`, HMAC-SHA256 with the endpoint's `whsec_` secret). Any 2xx acknowledges it; anything else is retried for 24 h.",
        requestBody: { required: true, content: { 'application/json': { schema: message.schema } } },
        responses: { '200': { description: 'Received (any 2xx)' } },
      },
    },
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
      // The messages' own; they refer to the bridge's Transaction, Refund and Meta as they are.
      ...Object.fromEntries(Object.entries(message.components ?? {}).filter(([name]) => !(name in schemas))),
      ErrorString: createSchema(errorEnvelope('string')).schema,
      ErrorBoolean: createSchema(errorEnvelope('boolean')).schema,
    },
  };
  document.info.contact = { name: 'Platform support' };
  document.info.license = { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' };
  cached = document;
  return document;
}
