import { ERROR_KINDS, type AppError } from './errors';

export type Locale = 'es-PE' | 'en-US';

/**
 * The type of `success` in a REST answer: the string "true" (authorization and refunds) or a
 * boolean (token, transaction query, cancellation), docs/interface.md 2.1. Its error envelope
 * says "false" in the same type (docs/DESIGN.md 4).
 */
export type SuccessType = 'string' | 'boolean';
export type LocalizedMessage = { locale: string; value: string };
export type MetaStatus = { status: { code: string; message_ilgn: LocalizedMessage[] } };

export function successMeta(): MetaStatus {
  return {
    status: {
      code: '00',
      message_ilgn: [
        { locale: 'es-PE', value: 'Procesado' },
        { locale: 'en-US', value: 'Processed' },
      ],
    },
  };
}

export function errorMeta(error: AppError): MetaStatus {
  const kind = ERROR_KINDS[error.kind];
  const words = error.ilgn ?? kind;
  return {
    status: {
      code: kind.code,
      message_ilgn: [
        { locale: 'es-PE', value: words.es },
        { locale: 'en-US', value: words.en },
      ],
    },
  };
}

/** The error body of docs/DESIGN.md 4; `success` takes the type the endpoint uses on success. */
export function errorBody(error: AppError, successType: SuccessType) {
  return {
    success: successType === 'string' ? ('false' as const) : false,
    ...error.extras,
    meta: errorMeta(error),
    errors: error.errors,
  };
}
