import { db } from '@/server/db/client';
import { tokenSigningKey } from '@/server/auth/service-keys';
import { jsonResponse } from '@/server/api/rest/json-response';
import { requestIdOf } from '@/server/api/rest/request-id';
import { methodNotAllowed } from '@/server/api/rest/method-not-allowed';

export const dynamic = 'force-dynamic';

const notAllowed = methodNotAllowed('GET');
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };

export async function GET(request: Request): Promise<Response> {
  const key = await tokenSigningKey(await db());
  return jsonResponse({ keys: [key.publicJwk] }, 200, {
    'cache-control': 'public, max-age=300',
    'x-request-id': requestIdOf(request.headers),
  });
}
