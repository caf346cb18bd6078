// One error type for the whole service and one table from its kind to the HTTP status and
// meta.status.code of docs/DESIGN.md 4. Messages never carry internals or client secrets.

export const ERROR_KINDS = {
  VALIDATION: { status: 400, code: '10', es: 'Solicitud inválida', en: 'Invalid request' },
  API_VERSION: {
    status: 400,
    code: '11',
    es: 'Versión de API ausente o no soportada',
    en: 'Missing or unsupported ALG-API-VERSION',
  },
  MALFORMED_BODY: {
    status: 400,
    code: '12',
    es: 'El cuerpo no es JSON o no es application/json',
    en: 'Body is not JSON or not application/json',
  },
  UNAUTHENTICATED: {
    status: 401,
    code: '20',
    es: 'Token inválido o expirado',
    en: 'Token invalid or expired',
  },
  FORBIDDEN: { status: 403, code: '21', es: 'Acceso denegado', en: 'Access denied' },
  INVALID_CLIENT: {
    status: 401,
    code: '22',
    es: 'Credenciales de cliente inválidas',
    en: 'Invalid client credentials',
  },
  NOT_FOUND: { status: 404, code: '30', es: 'Recurso no encontrado', en: 'Resource not found' },
  METHOD_NOT_ALLOWED: {
    status: 405,
    code: '31',
    es: 'Método HTTP no permitido',
    en: 'HTTP method not allowed',
  },
  CONFLICT: {
    status: 409,
    code: '40',
    es: 'Solicitud en conflicto con una anterior',
    en: 'Request conflicts with an earlier one',
  },
  STATE_CONFLICT: {
    status: 409,
    code: '41',
    es: 'El estado no lo permite',
    en: 'The current state does not allow it',
  },
  METHOD_RULE: {
    status: 422,
    code: '42',
    es: 'El medio de pago no lo permite',
    en: 'The payment method does not allow it',
  },
  RATE_LIMITED: { status: 429, code: '50', es: 'Demasiadas solicitudes', en: 'Too many requests' },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    code: '51',
    es: 'El cuerpo excede 64 KiB',
    en: 'Body larger than 64 KiB',
  },
  INTERNAL: { status: 500, code: '01', es: 'Error inesperado', en: 'Unexpected error' },
  UNAVAILABLE: {
    status: 503,
    code: '02',
    es: 'Servicio no disponible por un momento; reintente',
    en: 'Service briefly unavailable; retry',
  },
} as const;

export type ErrorKind = keyof typeof ERROR_KINDS;

export type FieldError = { field?: string; code: string; message: string };

export class AppError extends Error {
  readonly kind: ErrorKind;
  readonly errors: FieldError[];
  readonly headers: Record<string, string>;
  /** Extra top-level body fields, e.g. RFC 6749 `error` and `error_description` on the token endpoint. */
  readonly extras: Record<string, string>;

  constructor(
    kind: ErrorKind,
    message?: string,
    options: {
      errors?: FieldError[];
      headers?: Record<string, string>;
      extras?: Record<string, string>;
    } = {},
  ) {
    super(message ?? ERROR_KINDS[kind].en);
    this.name = 'AppError';
    this.kind = kind;
    this.errors = options.errors ?? (message ? [{ code: kind.toLowerCase(), message }] : []);
    this.headers = options.headers ?? {};
    this.extras = options.extras ?? {};
  }

  get status(): number {
    return ERROR_KINDS[this.kind].status;
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}
