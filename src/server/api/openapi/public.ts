import { errorResponses, requestIdHeader } from './errors';

// Public documents, documented by hand: GET only, no token, no ALG-API-VERSION.
type PublicDocument = {
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  content: Record<string, unknown>;
  /** Whether it is read from the database (then 503 when the database is briefly away). */
  stored?: boolean;
};

export function publicDocument({ operationId, tag, summary, description, content, stored }: PublicDocument) {
  return {
    get: {
      operationId,
      tags: [tag],
      summary,
      description,
      security: [],
      responses: {
        200: { description: summary, headers: { 'X-Request-Id': requestIdHeader }, content },
        ...errorResponses(stored ? [405, 500, 503] : [405, 500], 'boolean'),
      },
    },
  };
}

/** The public documents under {base_url}. */
export function publicPaths() {
  return {
    '/webhooks/public-key': publicDocument({
      operationId: 'getCallbackPublicKey',
      stored: true,
      tag: 'callbacks',
      summary: 'Public key that verifies callback signatures',
      description:
        'Every callback POST carries a `signature` header: base64 RSA-SHA512 over the raw body. Verify it with this SPKI PEM key before parsing the body.',
      content: { 'application/x-pem-file': { schema: { type: 'string' } } },
    }),
    '/openapi.json': publicDocument({
      operationId: 'getOpenApiDocument',
      tag: 'public',
      summary: 'This OpenAPI document',
      description: 'OpenAPI 3.1 of the whole interface, public.',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['openapi', 'info', 'paths'],
            properties: { openapi: { type: 'string', const: '3.1.0' }, info: { type: 'object' }, paths: { type: 'object' } },
          },
        },
      },
    }),
  };
}
