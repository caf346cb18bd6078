import { AppError } from '@/server/domain/errors';
import { errorResponse } from './json-response';
import { requestIdOf } from './request-id';

/** A route handler answering 405 31 in the envelope with `Allow` (for the methods a route file does not serve). */
export function methodNotAllowed(allow: string): (request: Request) => Response {
  return (request) =>
    errorResponse(
      new AppError('METHOD_NOT_ALLOWED', `use ${allow}`, { headers: { allow } }),
      'boolean',
      requestIdOf(request.headers),
    );
}
