import { db } from '@/server/db/client';
import { callbackSigningKey } from '@/server/auth/service-keys';
import { requestIdOf } from '@/server/api/rest/request-id';
import { methodNotAllowed } from '@/server/api/rest/method-not-allowed';

export const dynamic = 'force-dynamic';

const notAllowed = methodNotAllowed('GET');
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };

/** The public key that verifies callback `signature` headers (RSA-SHA512, base64), as PEM. */
export async function GET(request: Request): Promise<Response> {
  const key = await callbackSigningKey(await db());
  return new Response(key.publicKeyPem, {
    headers: {
      'content-type': 'application/x-pem-file',
      'content-disposition': 'inline; filename="callbacks-public-key.pem"',
      'cache-control': 'public, max-age=300',
      'x-request-id': requestIdOf(request.headers),
    },
  });
}
