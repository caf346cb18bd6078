import { env } from '@/env';
import type { Db, Tx } from '@/server/platform/db/client';
import { open, seal, sealingKeys, type KeyRing, type Sealed } from '@/server/platform/security/sealed-box';

// A processor account's secrets (docs/processors/README.md): the secret key or access token and
// what verifies the processor's notifications, sealed together as one JSON value under
// PROCESSOR_SECRET_KEYS (or the generated key), the account's id as additional data. They are
// opened only to build the account's connector, never shown again after they were entered, never
// logged.

export type AccountSecrets = { secretKey: string; webhookSecret: string | null };

export function processorSecretKeys(db: Db | Tx): Promise<KeyRing> {
  return sealingKeys(db, 'processor-secrets-key', env().PROCESSOR_SECRET_KEYS);
}

export function sealSecrets(ring: KeyRing, accountId: string, secrets: AccountSecrets): Sealed {
  const plain = Buffer.from(JSON.stringify(secrets), 'utf8');
  try {
    return seal(ring, accountId, plain);
  } finally {
    plain.fill(0);
  }
}

export type SealedColumns = { secretKeyId: string; secretIv: Uint8Array; secretCiphertext: Uint8Array; secretTag: Uint8Array };

export function openSecrets(ring: KeyRing, accountId: string, row: SealedColumns): AccountSecrets {
  const plain = open(
    ring,
    accountId,
    { keyId: row.secretKeyId, iv: row.secretIv, ciphertext: row.secretCiphertext, tag: row.secretTag },
    'processor account secret',
  );
  try {
    const parsed = JSON.parse(plain.toString('utf8')) as AccountSecrets;
    return { secretKey: parsed.secretKey, webhookSecret: parsed.webhookSecret ?? null };
  } catch {
    // JSON.parse's message quotes its input: never let it carry a secret.
    throw new Error('a processor account secret is not what was sealed');
  } finally {
    plain.fill(0);
  }
}

/** The columns a sealed value is written to. */
export function sealedColumns(sealed: Sealed) {
  return { secretKeyId: sealed.keyId, secretIv: sealed.iv, secretCiphertext: sealed.ciphertext, secretTag: sealed.tag };
}

/**
 * What is kept of a secret in the clear: its prefix and last four (`sk_test_…a1b2`); of a short
 * one (a password a person chose), only its prefix, since four characters would be half of it.
 */
export function secretHint(secret: string): string {
  const prefix = /^(sk_(?:test|live)_|APP_USR-|TEST-|testpassword_|prodpassword_)/.exec(secret)?.[1] ?? '';
  return `${prefix}…${secret.length - prefix.length >= 16 ? secret.slice(-4) : ''}`;
}
