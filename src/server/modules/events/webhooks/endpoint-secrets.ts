import { randomUUID } from 'node:crypto';
import { env } from '@/env';
import type { Db, Tx } from '@/server/platform/db/client';
import { open, seal, sealingKeys, type KeyRing } from '@/server/platform/security/sealed-box';
import { newEndpointSecret, secretHintOf } from './standard-webhooks';

// A webhook endpoint's signing secrets (Standard Webhooks): made by the service, shown once,
// sealed at rest (the service computes HMACs with them, so a hash would not do), the row's id as
// additional data. Rotation keeps the previous secret signing for an overlap the merchant chooses,
// so its receivers can switch over without losing a delivery; an overlap of 0 ends it at once
// (a leaked secret).

/** Longest overlap a rotation may keep (a week). */
export const MAX_OVERLAP_HOURS = 168;

export function webhookSecretKeys(db: Db | Tx): Promise<KeyRing> {
  return sealingKeys(db, 'webhook-secrets-key', env().WEBHOOK_SECRET_KEYS);
}

/** Makes, seals and stores a new active secret of the endpoint; answers it in the clear, this once. */
export async function addSecret(tx: Tx, ring: KeyRing, endpointId: string): Promise<{ secret: string; hint: string }> {
  const secret = newEndpointSecret();
  const id = randomUUID();
  const plain = Buffer.from(secret, 'utf8');
  try {
    const sealed = seal(ring, id, plain);
    const hint = secretHintOf(secret);
    await tx.webhookEndpointSecret.create({
      data: {
        id,
        endpointId,
        hint,
        secretKeyId: sealed.keyId,
        secretIv: sealed.iv,
        secretCiphertext: sealed.ciphertext,
        secretTag: sealed.tag,
      },
    });
    return { secret, hint };
  } finally {
    plain.fill(0);
  }
}

/** The secrets an endpoint's deliveries are signed with now: the active one first, then any still overlapping. */
export async function signingSecrets(db: Db, endpointId: string, now = new Date()): Promise<string[]> {
  const rows = await db.webhookEndpointSecret.findMany({
    where: { endpointId, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
    orderBy: { createdAt: 'desc' },
  });
  if (rows.length === 0) return [];
  const ring = await webhookSecretKeys(db);
  return rows.map((row) =>
    open(
      ring,
      row.id,
      { keyId: row.secretKeyId, iv: row.secretIv, ciphertext: row.secretCiphertext, tag: row.secretTag },
      'webhook endpoint secret',
    ).toString('utf8'),
  );
}

/**
 * A new active secret for an endpoint (locked by the caller's transaction): the active one keeps
 * signing for `overlapHours`, any older one still overlapping ends now, and expired rows go.
 */
export async function rotateSecret(tx: Tx, ring: KeyRing, endpointId: string, overlapHours: number, now = new Date()) {
  await tx.webhookEndpointSecret.updateMany({
    where: { endpointId, expiresAt: { gt: now } },
    data: { expiresAt: now },
  });
  const previousExpiresAt = new Date(now.getTime() + overlapHours * 3_600_000);
  const ended = await tx.webhookEndpointSecret.updateMany({
    where: { endpointId, expiresAt: null },
    data: { expiresAt: previousExpiresAt },
  });
  await tx.webhookEndpointSecret.deleteMany({ where: { endpointId, expiresAt: { lte: now } } });
  const made = await addSecret(tx, ring, endpointId);
  return { ...made, previousExpiresAt: ended.count > 0 && overlapHours > 0 ? previousExpiresAt : null };
}
