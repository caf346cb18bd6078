import { AppError } from '@/server/domain/errors';
import { errorResponse } from '@/server/api/rest/json-response';
import { requestIdOf } from '@/server/api/rest/request-id';

export const dynamic = 'force-dynamic';

function notFound(request: Request): Response {
  return errorResponse(new AppError('NOT_FOUND', 'no such path'), 'boolean', requestIdOf(request.headers));
}
export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
