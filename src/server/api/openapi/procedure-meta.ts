import type { OpenApiMeta } from 'trpc-to-openapi';

import type { SuccessType } from '@/server/core/domain/envelope';

export type { SuccessType };

type RestOperation = NonNullable<OpenApiMeta['openapi']>;

/**
 * The meta of every procedure: a REST operation (`openapi`) must say its `successType`, which
 * the REST wrapper's error envelope and the OpenAPI document's error responses both read.
 */
export type ProcedureMeta =
  | { openapi?: undefined; successType?: undefined; bodyOptional?: undefined }
  | {
      openapi: RestOperation;
      successType: SuccessType;
      /** A POST that may come without a body (or a Content-Type): it reads as `{}`. */
      bodyOptional?: true;
    };
