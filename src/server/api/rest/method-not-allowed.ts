import { AppError } from '@/server/domain/errors';
import type { ApiRequest, ApiReply } from './api-request';
import { errorReply } from './json-response';
import { requestIdOf } from './request-id';

/** A handler answering 405 31 in the envelope with `Allow` (for the methods a path does not serve). */
export function methodNotAllowed(allow: string): (request: ApiRequest) => ApiReply {
  return (request) =>
    errorReply(
      new AppError('METHOD_NOT_ALLOWED', `use ${allow}`, { headers: { allow } }),
      'boolean',
      requestIdOf(request.headers),
    );
}
