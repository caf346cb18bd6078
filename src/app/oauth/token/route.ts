import { AppError } from '@/server/domain/errors';
import { errorResponse } from '@/server/api/json-response';
import { requestIdOf } from '@/server/api/request-id';
import { handleTokenRequest } from '@/server/api/token-handler';
import { observed } from '@/server/observability/observe-route';

export const dynamic = 'force-dynamic';
export const POST = observed('token', handleTokenRequest);

const methodNotAllowed = observed('token', (request) =>
  errorResponse(
    new AppError('METHOD_NOT_ALLOWED', 'use POST', { headers: { allow: 'POST' } }),
    'boolean',
    requestIdOf(request.headers),
  ),
);
export { methodNotAllowed as GET, methodNotAllowed as PUT, methodNotAllowed as PATCH, methodNotAllowed as DELETE };
