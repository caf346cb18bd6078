// One error type for the whole service and one table of its kinds: the HTTP status and
// meta.status.code of docs/DESIGN.md 4, the tRPC error key (the JSON-RPC `code` of a tRPC error
// says what its HTTP status says), the OpenAPI document's text (`doc`) and the envelope's
// messages. Everything else (the envelope, tRPC's codes, the document) reads it from here.
// Messages never carry internals or client secrets.

export const ERROR_KINDS = {
  VALIDATION: {
    status: 400,
    code: '10',
    trpc: 'BAD_REQUEST',
    doc: 'Invalid request',
    es: 'Solicitud inválida',
    en: 'Invalid request',
  },
  API_VERSION: {
    status: 400,
    code: '11',
    trpc: 'BAD_REQUEST',
    doc: 'unsupported ALG-API-VERSION',
    es: 'Versión de API no soportada',
    en: 'Unsupported ALG-API-VERSION',
  },
  MALFORMED_BODY: {
    status: 400,
    code: '12',
    trpc: 'PARSE_ERROR',
    doc: 'body not JSON',
    es: 'El cuerpo no es JSON o no es application/json',
    en: 'Body is not JSON or not application/json',
  },
  UNAUTHENTICATED: {
    status: 401,
    code: '20',
    trpc: 'UNAUTHORIZED',
    doc: 'Token missing, invalid or expired',
    es: 'Token inválido o expirado',
    en: 'Token invalid or expired',
  },
  FORBIDDEN: {
    status: 403,
    code: '21',
    trpc: 'FORBIDDEN',
    doc: 'Missing scope, or merchant/facilitator the token does not act for',
    es: 'Acceso denegado',
    en: 'Access denied',
  },
  INVALID_CLIENT: {
    status: 401,
    code: '22',
    trpc: 'UNAUTHORIZED',
    doc: 'client credentials not accepted',
    es: 'Credenciales de cliente inválidas',
    en: 'Invalid client credentials',
  },
  NOT_FOUND: {
    status: 404,
    code: '30',
    trpc: 'NOT_FOUND',
    doc: 'No such operation, transaction or refund for this merchant',
    es: 'Recurso no encontrado',
    en: 'Resource not found',
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    code: '31',
    trpc: 'METHOD_NOT_SUPPORTED',
    doc: 'Method not allowed on this path',
    es: 'Método HTTP no permitido',
    en: 'HTTP method not allowed',
  },
  CONFLICT: {
    status: 409,
    code: '40',
    trpc: 'CONFLICT',
    doc: 'Reused merchant_operation_number or Idempotency-Key',
    es: 'Solicitud en conflicto con una anterior',
    en: 'Request conflicts with an earlier one',
  },
  STATE_CONFLICT: {
    status: 409,
    code: '41',
    trpc: 'CONFLICT',
    doc: 'the state does not allow it',
    es: 'El estado no lo permite',
    en: 'The current state does not allow it',
  },
  METHOD_RULE: {
    status: 422,
    code: '42',
    trpc: 'UNPROCESSABLE_CONTENT',
    doc: 'The payment method does not allow it',
    es: 'El medio de pago no lo permite',
    en: 'The payment method does not allow it',
  },
  RATE_LIMITED: {
    status: 429,
    code: '50',
    trpc: 'TOO_MANY_REQUESTS',
    doc: 'Rate limit exceeded',
    es: 'Demasiadas solicitudes',
    en: 'Too many requests',
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    code: '51',
    trpc: 'PAYLOAD_TOO_LARGE',
    doc: 'Body larger than 64 KiB',
    es: 'El cuerpo excede 64 KiB',
    en: 'Body larger than 64 KiB',
  },
  INTERNAL: {
    status: 500,
    code: '01',
    // A procedure's AppError reaches tRPC's error formatter wrapped in an INTERNAL_SERVER_ERROR
    // (-32603), which a tRPC client reads as a server fault: every other kind says its own.
    trpc: 'INTERNAL_SERVER_ERROR',
    doc: 'Unexpected fault',
    es: 'Error inesperado',
    en: 'Unexpected error',
  },
  UNAVAILABLE: {
    status: 503,
    code: '02',
    trpc: 'SERVICE_UNAVAILABLE',
    doc: 'The service is briefly unavailable: retry after Retry-After seconds, a charge or refund with the same Idempotency-Key',
    es: 'Servicio no disponible por un momento; reintente',
    en: 'Service briefly unavailable; retry',
  },
} as const;

export type ErrorKind = keyof typeof ERROR_KINDS;

/** What the document says of a status: each kind that answers it, with its code ("A (10), B (11) or C (12)"). */
export function statusDocumentation(status: number): string {
  const parts = Object.values(ERROR_KINDS)
    .filter((kind) => kind.status === status)
    .map((kind) => `${kind.doc} (${kind.code})`);
  return parts.length <= 1 ? (parts[0] ?? 'Error') : `${parts.slice(0, -1).join(', ')} or ${parts.at(-1)}`;
}

export type FieldError = { field?: string; code: string; message: string };

export class AppError extends Error {
  readonly kind: ErrorKind;
  readonly errors: FieldError[];
  readonly headers: Record<string, string>;
  /** Extra top-level body fields, e.g. RFC 6749 `error` and `error_description` on the token endpoint. */
  readonly extras: Record<string, string>;
  /** `meta.status.message_ilgn` saying more than the kind's words (why a consent does not cover an MIT). */
  readonly ilgn: { es: string; en: string } | null;

  constructor(
    kind: ErrorKind,
    message?: string,
    options: {
      errors?: FieldError[];
      headers?: Record<string, string>;
      extras?: Record<string, string>;
      ilgn?: { es: string; en: string };
    } = {},
  ) {
    super(message ?? ERROR_KINDS[kind].en);
    this.name = 'AppError';
    this.kind = kind;
    this.errors = options.errors ?? (message ? [{ code: kind.toLowerCase(), message }] : []);
    this.headers = options.headers ?? {};
    this.extras = options.extras ?? {};
    this.ilgn = options.ilgn ?? null;
  }

  get status(): number {
    return ERROR_KINDS[this.kind].status;
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}
