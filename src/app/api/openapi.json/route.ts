import { openApiDocument } from '@/server/api/openapi-document';
import { jsonResponse } from '@/server/api/json-response';
import { requestIdOf } from '@/server/api/request-id';

export const dynamic = 'force-dynamic';

export function GET(request: Request): Response {
  return jsonResponse(openApiDocument(), 200, {
    'cache-control': 'public, max-age=60',
    'access-control-allow-origin': '*',
    'x-request-id': requestIdOf(request.headers),
  });
}
