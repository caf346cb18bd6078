import { openApiDocument } from '@/server/api/openapi/document';
import { jsonResponse } from '@/server/api/rest/json-response';
import { requestIdOf } from '@/server/api/rest/request-id';
import { methodNotAllowed } from '@/server/api/rest/method-not-allowed';

export const dynamic = 'force-dynamic';

const notAllowed = methodNotAllowed('GET');
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };

export function GET(request: Request): Response {
  return jsonResponse(openApiDocument(), 200, {
    'cache-control': 'public, max-age=60',
    'access-control-allow-origin': '*',
    'x-request-id': requestIdOf(request.headers),
  });
}
