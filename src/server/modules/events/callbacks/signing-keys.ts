import { createHash, createPrivateKey, createPublicKey, generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { env } from '@/env';
import type { Db } from '@/server/platform/db/client';
import { AppError } from '@/server/core/domain/errors';

// The RSA keys that sign callbacks (RSA-SHA512, docs/DESIGN.md 9) and their rotation: the newest
// key without a retirement signs and is the one `{base_url}/webhooks/public-key` serves; a key
// rotated out stays published in `{base_url}/webhooks/keys` until it retires, so receivers that
// fetched either verify every callback of the overlap. Each callback names its key in the
// `signature-key-id` header. CALLBACK_SIGNING_KEY_PEM, when set, is the one key (rotated by
// configuration, not here).

const generateRsaKeyPair = promisify(generateKeyPair);
/** How long a process keeps the key set before reading it again: another instance may have rotated. */
const CACHE_MS = 10_000;
export const DEFAULT_OVERLAP_DAYS = 7;

export type CallbackKey = { kid: string; privateKey: KeyObject; publicKeyPem: string };
export type PublishedKey = { kid: string; publicKeyPem: string; publicKey: KeyObject; createdAt: Date; retiresAt: Date | null };
export type CallbackKeys = { active: CallbackKey; published: PublishedKey[]; configured: boolean };

/** The key's id: the first 16 hex digits of the SHA-256 of its SPKI DER (stable, derived, not secret). */
export function keyIdOf(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex')
    .slice(0, 16);
}

async function newPrivatePem(): Promise<string> {
  const { privateKey } = await generateRsaKeyPair('rsa', { modulusLength: 3072 });
  return privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

function described(privatePem: string) {
  const privateKey = createPrivateKey(privatePem);
  const publicKey = createPublicKey(privateKey);
  return {
    kid: keyIdOf(publicKey),
    privateKey,
    publicKey,
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

const FIRST_KEY_LOCK = 7_201_125_002;

/** The first key: the one service_keys kept before rotation existed, or a new one. */
async function firstKey(prisma: Db): Promise<void> {
  const legacy = await prisma.serviceKey.findUnique({ where: { name: 'callback-signing-key' }, select: { value: true } });
  const privatePem = (legacy?.value as { privatePem?: string } | undefined)?.privatePem ?? (await newPrivatePem());
  // Processes starting together must not each make one: the first to hold the lock writes it.
  await prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(${FIRST_KEY_LOCK}::bigint)`;
    if ((await tx.callbackSigningKey.count({ where: { retiresAt: null } })) > 0) return;
    await tx.callbackSigningKey.createMany({ data: [{ kid: described(privatePem).kid, privatePem }], skipDuplicates: true });
  });
}

async function readKeys(prisma: Db): Promise<CallbackKeys> {
  const configured = env().CALLBACK_SIGNING_KEY_PEM;
  if (configured) {
    const key = described(configured);
    return { active: key, published: [{ ...key, createdAt: new Date(0), retiresAt: null }], configured: true };
  }
  const current = () =>
    prisma.callbackSigningKey.findMany({
      where: { OR: [{ retiresAt: null }, { retiresAt: { gt: new Date() } }] },
      orderBy: { createdAt: 'desc' },
    });
  let rows = await current();
  if (!rows.some((row) => row.retiresAt === null)) {
    await firstKey(prisma);
    rows = await current();
  }
  const keys = rows.map((row) => ({ ...described(row.privatePem), createdAt: row.createdAt, retiresAt: row.retiresAt }));
  const active = keys.find((key) => key.retiresAt === null)!;
  return {
    active: { kid: active.kid, privateKey: active.privateKey, publicKeyPem: active.publicKeyPem },
    published: keys.map(({ kid, publicKeyPem, publicKey, createdAt, retiresAt }) => ({
      kid,
      publicKeyPem,
      publicKey,
      createdAt,
      retiresAt,
    })),
    configured: false,
  };
}

// On globalThis: Next bundles the console's pages and its route handlers apart, each with its own
// copy of this module, and a rotation must reach every copy's cache in this process at once.
const slot = globalThis as { __payCallbackKeys?: { at: number; keys: Promise<CallbackKeys> } };

export function callbackKeys(prisma: Db): Promise<CallbackKeys> {
  const cached = slot.__payCallbackKeys;
  if (cached && Date.now() - cached.at < CACHE_MS) return cached.keys;
  const keys = readKeys(prisma);
  slot.__payCallbackKeys = { at: Date.now(), keys };
  keys.catch(() => {
    if (slot.__payCallbackKeys?.keys === keys) slot.__payCallbackKeys = undefined;
  });
  return keys;
}

/** The key that signs callbacks now. */
export async function callbackSigningKey(prisma: Db): Promise<CallbackKey> {
  return (await callbackKeys(prisma)).active;
}

/**
 * A new signing key, at once; the one it replaces stays published for `overlapDays` (0: retired
 * now). One rotation at a time: the active key is retired only if it still is the active one.
 */
export async function rotateCallbackKey(
  prisma: Db,
  overlapDays = DEFAULT_OVERLAP_DAYS,
): Promise<{ kid: string; retired: string; retiresAt: Date }> {
  if (env().CALLBACK_SIGNING_KEY_PEM) {
    throw new AppError('STATE_CONFLICT', 'the callback signing key is CALLBACK_SIGNING_KEY_PEM: rotate it in the configuration');
  }
  const { active } = await readKeys(prisma);
  const privatePem = await newPrivatePem();
  const kid = described(privatePem).kid;
  const retiresAt = new Date(Date.now() + overlapDays * 86_400_000);
  await prisma.$transaction(async (tx) => {
    const retired = await tx.callbackSigningKey.updateMany({ where: { kid: active.kid, retiresAt: null }, data: { retiresAt } });
    if (retired.count !== 1) throw new AppError('STATE_CONFLICT', 'the signing key was rotated meanwhile; look again');
    await tx.callbackSigningKey.create({ data: { kid, privatePem } });
  });
  slot.__payCallbackKeys = undefined;
  return { kid, retired: active.kid, retiresAt };
}
