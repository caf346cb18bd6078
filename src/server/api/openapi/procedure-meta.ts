import type { OpenApiMeta } from 'trpc-to-openapi';

/**
 * The type of `success` in a REST answer: the string "true" (authorization and refunds) or a
 * boolean (token, transaction query, cancellation), docs/interface.md 2.1. Its error envelope
 * says "false" in the same type (docs/DESIGN.md 4).
 */
export type SuccessType = 'string' | 'boolean';

type RestOperation = NonNullable<OpenApiMeta['openapi']>;

/**
 * The meta of every procedure: a REST operation (`openapi`) must say its `successType`, which
 * the REST wrapper's error envelope and the OpenAPI document's error responses both read.
 */
export type ProcedureMeta =
  { openapi?: undefined; successType?: undefined } | { openapi: RestOperation; successType: SuccessType };
