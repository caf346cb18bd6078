import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { env, type SealingKey } from '@/env';
import type { Db, Tx } from '@/server/platform/db/client';

// Key material made on first start and kept in the database, so every instance shares it.
async function loadOrCreate<T>(prisma: Db | Tx, name: string, create: () => Promise<T>): Promise<T> {
  const existing = await prisma.serviceKey.findUnique({ where: { name }, select: { value: true } });
  if (existing) return existing.value as T;
  await prisma.serviceKey.createMany({ data: [{ name, value: (await create()) as object }], skipDuplicates: true });
  const stored = await prisma.serviceKey.findUniqueOrThrow({ where: { name }, select: { value: true } });
  return stored.value as T;
}

export type SigningKey = { kid: string; privateKey: CryptoKey; publicKey: CryptoKey; publicJwk: JWK };

type StoredSigningKey = { kid: string; privateJwk: JWK; publicJwk: JWK };

let signingKey: Promise<SigningKey> | undefined;
let requestHashSecret: Promise<Buffer> | undefined;

function configuredSigningKey(): StoredSigningKey | null {
  const jwk = env().TOKEN_SIGNING_JWK;
  if (!jwk) return null;
  const { d: _private, ...publicPart } = jwk;
  return { kid: jwk.kid!, privateJwk: jwk, publicJwk: { ...publicPart, alg: 'ES256', use: 'sig' } };
}

export function tokenSigningKey(prisma: Db): Promise<SigningKey> {
  signingKey ??= (async () => {
    const stored =
      configuredSigningKey() ??
      (await loadOrCreate<StoredSigningKey>(prisma, 'jwt-signing-key', async () => {
        const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
        const kid = randomBytes(8).toString('hex');
        return {
          kid,
          privateJwk: await exportJWK(privateKey),
          publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' },
        };
      }));
    const privateKey = (await importJWK(stored.privateJwk, 'ES256')) as CryptoKey;
    const publicKey = (await importJWK(stored.publicJwk, 'ES256')) as CryptoKey;
    return { kid: stored.kid, privateKey, publicKey, publicJwk: stored.publicJwk };
  })();
  signingKey.catch(() => (signingKey = undefined));
  return signingKey;
}

/** Keys the request hashes that detect retries: they cover card data, so never a bare digest. */
export function requestHashKey(prisma: Db): Promise<Buffer> {
  requestHashSecret ??= loadOrCreate<{ secret: string }>(prisma, 'request-hash-secret', async () => ({
    secret: randomBytes(32).toString('base64'),
  })).then((stored) => Buffer.from(stored.secret, 'base64'));
  requestHashSecret.catch(() => (requestHashSecret = undefined));
  return requestHashSecret;
}

let consoleSecret: Promise<string> | undefined;

/** The secret that signs console session cookies: NEXTAUTH_SECRET, or one made on first start and kept. */
export function consoleSessionSecret(prisma: Db): Promise<string> {
  consoleSecret ??= (async () =>
    env().NEXTAUTH_SECRET ??
    (
      await loadOrCreate<{ secret: string }>(prisma, 'console-session-secret', async () => ({
        secret: randomBytes(32).toString('base64url'),
      }))
    ).secret)();
  consoleSecret.catch(() => (consoleSecret = undefined));
  return consoleSecret;
}

/**
 * What a generated sealing key protects (src/server/platform/security/sealed-box.ts), or keys
 * (client secrets' pepper, secrets.ts): its row in `service_keys`.
 */
export type SealingKeyName = 'processor-secrets-key' | 'webhook-secrets-key' | 'client-secret-pepper';

const sealingKeys = new Map<SealingKeyName, Promise<SealingKey>>();

/**
 * A sealing key when its configuration is not set (development, the demo, one-command start):
 * 32 random bytes made on first start and kept, id `local-1`.
 */
export function generatedSealingKey(prisma: Db | Tx, name: SealingKeyName): Promise<SealingKey> {
  let key = sealingKeys.get(name);
  if (!key) {
    key = loadOrCreate<{ kid: string; key: string }>(prisma, name, async () => ({
      kid: 'local-1',
      key: randomBytes(32).toString('base64'),
    })).then((stored) => ({ kid: stored.kid, key: Buffer.from(stored.key, 'base64') }));
    sealingKeys.set(name, key);
    key.catch(() => sealingKeys.delete(name));
  }
  return key;
}

/** The generated key if one was ever made (it still decrypts after the keys are configured); never makes one. */
export async function keptSealingKey(prisma: Db | Tx, name: SealingKeyName): Promise<SealingKey | null> {
  const kept = await prisma.serviceKey.findUnique({ where: { name }, select: { value: true } });
  if (!kept) return null;
  const { kid, key } = kept.value as { kid: string; key: string };
  return { kid, key: Buffer.from(key, 'base64') };
}
