import { errorResponses, requestIdHeader } from './errors';

// Public documents, documented by hand: GET only, no token, no ALG-API-VERSION.
type PublicDocument = {
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  content: Record<string, unknown>;
  /** Response headers beside X-Request-Id. */
  headers?: Record<string, unknown>;
  /** Whether it is read from the database (then 503 when the database is briefly away). */
  stored?: boolean;
};

export function publicDocument({ operationId, tag, summary, description, content, headers, stored }: PublicDocument) {
  return {
    get: {
      operationId,
      tags: [tag],
      summary,
      description,
      security: [],
      responses: {
        200: { description: summary, headers: { 'X-Request-Id': requestIdHeader, ...headers }, content },
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
        'Every callback POST carries a `signature` header: base64 RSA-SHA512 over the raw body, and `signature-key-id`: the id of the key that made it. Verify it with this SPKI PEM key (the one signing now; its id in the `Key-Id` header) before parsing the body. During a key rotation, `/webhooks/keys` publishes both keys.',
      content: { 'application/x-pem-file': { schema: { type: 'string' } } },
      headers: {
        'Key-Id': {
          description: 'The id of this key, as callbacks name it in `signature-key-id`',
          required: true,
          schema: { type: 'string' },
        },
      },
    }),
    '/webhooks/keys': publicDocument({
      operationId: 'getCallbackKeys',
      stored: true,
      tag: 'callbacks',
      summary: 'Every key a callback may be signed with now (JWK Set)',
      description:
        "The active key and, for the overlap after a rotation (7 days by default), the key it replaced. Pick the key whose `kid` is the callback's `signature-key-id`; `pem` is the same key as SPKI PEM.",
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['keys'],
            additionalProperties: false,
            properties: {
              keys: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['kty', 'n', 'e', 'kid', 'alg', 'use', 'status', 'retires_at', 'pem'],
                  additionalProperties: false,
                  properties: {
                    kty: { type: 'string', const: 'RSA' },
                    n: { type: 'string' },
                    e: { type: 'string' },
                    kid: { type: 'string', pattern: '^[0-9a-f]{16}$' },
                    alg: { type: 'string', const: 'RS512' },
                    use: { type: 'string', const: 'sig' },
                    status: { type: 'string', enum: ['active', 'retiring'] },
                    retires_at: { type: ['string', 'null'], format: 'date-time' },
                    pem: { type: 'string' },
                  },
                },
              },
            },
          },
        },
      },
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
