import { db } from '@/server/db/client';
import { tokenSigningKey } from '@/server/auth/service-keys';
import { jsonResponse } from '@/server/api/json-response';

export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  const key = await tokenSigningKey(await db());
  return jsonResponse({ keys: [key.publicJwk] }, 200, { 'cache-control': 'public, max-age=300' });
}
