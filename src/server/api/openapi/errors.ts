import { z } from 'zod';
import { ERROR_KINDS, statusDocumentation } from '@/server/core/domain/errors';
import { metaStatus } from '@/server/core/interface/common';
import type { SuccessType } from './procedure-meta';

// Error responses of the OpenAPI document: the envelope of docs/DESIGN.md 4 for each status, described
// from the errors table (statusDocumentation).
const fieldError = z.strictObject({ field: z.string().optional(), code: z.string(), message: z.string() });

/** The envelope of a failure whose endpoint answers `success` of type `success`. */
export function errorEnvelope(success: SuccessType) {
  return z
    .strictObject({
      success: success === 'string' ? z.literal('false') : z.literal(false),
      error: z.string().optional().meta({ description: 'RFC 6749 error (token endpoint only)' }),
      error_description: z.string().optional().meta({ description: 'RFC 6749 description (token endpoint only)' }),
      meta: metaStatus,
      errors: z.array(fieldError),
    })
    .meta({
      examples: [
        {
          success: success === 'string' ? 'false' : false,
          meta: {
            status: {
              code: ERROR_KINDS.VALIDATION.code,
              message_ilgn: [
                { locale: 'es-PE', value: ERROR_KINDS.VALIDATION.es },
                { locale: 'en-US', value: ERROR_KINDS.VALIDATION.en },
              ],
            },
          },
          errors: [
            { field: 'payment_details.amount', code: 'invalid_format', message: 'must be a positive integer amount in cents' },
          ],
        },
      ],
    });
}

export const requestIdHeader = {
  description: "The request id (the caller's X-Request-Id or a new one)",
  required: true,
  schema: { type: 'string' },
};

/** Headers an error status always carries besides X-Request-Id (docs/DESIGN.md 3-4). */
export type HeaderObject = { description: string; required: boolean; schema: { type: string } };
const STATUS_HEADERS: Record<number, Record<string, HeaderObject>> = {
  401: {
    'WWW-Authenticate': {
      description: 'RFC 6750 3: `Bearer realm="pay"`, with `error="invalid_token"` and `error_description` when a token was sent',
      required: true,
      schema: { type: 'string' },
    },
  },
  403: {
    'WWW-Authenticate': {
      description: 'When the token lacks the scope: `Bearer realm="pay", error="insufficient_scope", scope="…"`',
      required: false,
      schema: { type: 'string' },
    },
  },
  405: { Allow: { description: 'The methods of this path', required: true, schema: { type: 'string' } } },
  429: { 'Retry-After': { description: 'Seconds to wait', required: true, schema: { type: 'integer' } } },
  503: { 'Retry-After': { description: 'Seconds to wait', required: true, schema: { type: 'integer' } } },
};

type ErrorResponse = { description: string; headers: Record<string, HeaderObject>; content: Record<string, unknown> };

export function errorResponses(statuses: number[], success: SuccessType): Record<string, ErrorResponse> {
  return Object.fromEntries(
    statuses.map((status) => [
      String(status),
      {
        description: statusDocumentation(status),
        headers: { 'X-Request-Id': requestIdHeader, ...STATUS_HEADERS[status] } satisfies Record<string, HeaderObject>,
        content: {
          'application/json': {
            schema: { $ref: `#/components/schemas/${success === 'string' ? 'ErrorString' : 'ErrorBoolean'}` },
          },
        },
      },
    ]),
  );
}
