import { openApiDocument } from '@/server/api/openapi-document';
import { jsonResponse } from '@/server/api/json-response';

export const dynamic = 'force-dynamic';

export function GET(): Response {
  return jsonResponse(openApiDocument(), 200, { 'cache-control': 'public, max-age=60', 'access-control-allow-origin': '*' });
}
