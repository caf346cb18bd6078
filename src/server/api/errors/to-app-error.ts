import { TRPCError } from '@trpc/server';
import { $ZodError } from 'zod/v4/core';
import { isTransientDatabaseFault } from '@/server/platform/db/transient-faults';
import { AppError, type FieldError } from '@/server/core/domain/errors';

function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key)),
    '',
  );
}

/** Field errors of a zod failure; messages never echo the input (it may hold card data). */
export function zodFieldErrors(error: $ZodError): FieldError[] {
  return error.issues.flatMap((issue): FieldError[] => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        field: fieldPath([...issue.path, key]),
        code: issue.code,
        message: 'is not an allowed property',
      }));
    }
    if (issue.code === 'invalid_union' && issue.path.at(-1) !== 'method_name') {
      return [{ field: fieldPath(issue.path), code: issue.code, message: 'does not match any allowed variant' }];
    }
    return [{ field: fieldPath(issue.path), code: issue.code, message: issue.message }];
  });
}

/** Maps anything a procedure throws to the one AppError of the envelope. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof TRPCError) {
    if (error.cause instanceof AppError) return error.cause;
    if (error.cause instanceof $ZodError && error.code === 'BAD_REQUEST') {
      return new AppError('VALIDATION', 'the request failed validation', { errors: zodFieldErrors(error.cause) });
    }
    if (error.cause && !(error.cause instanceof TRPCError) && error.code === 'INTERNAL_SERVER_ERROR')
      return toAppError(error.cause);
    switch (error.code) {
      case 'BAD_REQUEST':
      case 'PARSE_ERROR':
        return new AppError('VALIDATION', 'the request failed validation');
      case 'UNAUTHORIZED':
        return new AppError('UNAUTHENTICATED');
      case 'FORBIDDEN':
        return new AppError('FORBIDDEN');
      case 'NOT_FOUND':
        return new AppError('NOT_FOUND');
      case 'METHOD_NOT_SUPPORTED':
        return new AppError('METHOD_NOT_ALLOWED');
      case 'PAYLOAD_TOO_LARGE':
        return new AppError('PAYLOAD_TOO_LARGE');
      case 'UNSUPPORTED_MEDIA_TYPE':
        return new AppError('MALFORMED_BODY');
      case 'TOO_MANY_REQUESTS':
        return new AppError('RATE_LIMITED');
      default:
        return new AppError('INTERNAL');
    }
  }
  if (isTransientDatabaseFault(error)) {
    return new AppError(
      'UNAVAILABLE',
      'the database is briefly unavailable; retry (a charge or refund with its Idempotency-Key)',
      {
        headers: { 'Retry-After': '1' },
      },
    );
  }
  return new AppError('INTERNAL');
}
