import { env } from '@/env';
import { db } from '@/server/platform/db/client';
import { authorizationServerMetadata } from '@/server/modules/access/authorization-server-metadata';
import { tokenSigningKey } from '@/server/platform/security/service-keys';
import { callbackKeys } from '@/server/modules/events/callbacks/signing-keys';
import { openApiDocument } from '@/server/api/openapi/document';
import type { ApiRequest, ApiReply } from '@/server/platform/http/api-request';
import { jsonReply } from '@/server/platform/http/json-response';
import { requestIdOf } from '@/server/platform/http/request-id';

// The documents anyone may read: no token, GET only (src/server/api/openapi/public.ts documents them).

/** GET {auth_url}/.well-known/jwks.json: the key that verifies access tokens. */
export async function jwks(request: ApiRequest): Promise<ApiReply> {
  const key = await tokenSigningKey(await db());
  return jsonReply({ keys: [key.publicJwk] }, 200, {
    'cache-control': 'public, max-age=300',
    'x-request-id': requestIdOf(request.headers),
  });
}

/** RFC 8414 metadata of {auth_url} (the same document at both of its addresses). */
export function authorizationServer(request: ApiRequest): ApiReply {
  return jsonReply(authorizationServerMetadata(env()), 200, {
    'cache-control': 'public, max-age=300',
    'access-control-allow-origin': '*',
    'x-request-id': requestIdOf(request.headers),
  });
}

let openApiText: string | undefined;

/** GET {base_url}/openapi.json: the document, made once per process (the procedures do not change). */
export function openApiJson(request: ApiRequest): ApiReply {
  openApiText ??= JSON.stringify(openApiDocument());
  return {
    status: 200,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'public, max-age=60',
      'access-control-allow-origin': '*',
      'x-request-id': requestIdOf(request.headers),
    },
    body: openApiText,
  };
}

/**
 * GET {base_url}/webhooks/public-key: the key that signs callbacks now (RSA-SHA512, base64
 * `signature` header), as PEM; its id is in `Key-Id`, as each callback's `signature-key-id`.
 */
export async function callbackPublicKey(request: ApiRequest): Promise<ApiReply> {
  const { active } = await callbackKeys(await db());
  return {
    status: 200,
    headers: {
      'content-type': 'application/x-pem-file',
      'content-disposition': 'inline; filename="callbacks-public-key.pem"',
      'cache-control': 'public, max-age=300',
      'key-id': active.kid,
      'x-request-id': requestIdOf(request.headers),
    },
    body: active.publicKeyPem,
  };
}

/**
 * GET {base_url}/webhooks/keys: every key a callback may be signed with now, as a JWK Set
 * (RFC 7517) with each key's PEM and its retirement: during a rotation's overlap, both.
 */
export async function callbackKeySet(request: ApiRequest): Promise<ApiReply> {
  const { published, active } = await callbackKeys(await db());
  const keys = published.map((key) => ({
    ...(key.publicKey.export({ format: 'jwk' }) as { kty: string; n: string; e: string }),
    kid: key.kid,
    alg: 'RS512',
    use: 'sig',
    status: key.kid === active.kid ? 'active' : 'retiring',
    retires_at: key.retiresAt?.toISOString() ?? null,
    pem: key.publicKeyPem,
  }));
  return jsonReply({ keys }, 200, {
    'cache-control': 'public, max-age=60',
    'x-request-id': requestIdOf(request.headers),
  });
}
