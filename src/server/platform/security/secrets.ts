import { createHmac, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type { KeyRing } from '@/server/platform/security/sealed-box';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;
const N = 16_384;
const R = 8;
const P = 1;

/**
 * Slow salted hash for console passwords (chosen by people, so guessable): scrypt$N$r$p$salt$hash.
 * Node runs scrypt on libuv's thread pool, off the event loop. Client secrets had it too: their
 * old hashes still verify here, once (verifyClientSecret).
 */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(secret, salt, 32, { N, r: R, p: P });
  return ['scrypt', N, R, P, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scryptAsync(secret, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return timingSafeEqual(actual, expected);
}

const CLIENT_SECRET_SCHEME = 'hmac-sha256';

function clientSecretMac(secret: string, pepper: Buffer): Buffer {
  return createHmac('sha256', pepper).update(secret, 'utf8').digest();
}

/**
 * Keyed fast hash of a client secret: hmac-sha256$kid$mac, under the ring's current pepper. The
 * service draws the secrets (newClientSecret, 144 random bits): nothing to guess, so a slow KDF
 * would only cost each token request its CPU; the pepper (never in the same row, configured
 * apart from the database in production) keeps a dumped table from being tested offline at all.
 */
export function hashClientSecret(secret: string, peppers: KeyRing): string {
  const { kid, key } = peppers.current;
  return [CLIENT_SECRET_SCHEME, kid, clientSecretMac(secret, key).toString('base64url')].join('$');
}

/**
 * Whether `secret` is the one `stored` hashes, and whether the stored form should be rewritten
 * (`stale`: an scrypt hash from before, or a pepper that is no longer the first). A hash under a
 * pepper the ring no longer holds never verifies.
 */
export async function verifyClientSecret(
  secret: string,
  stored: string,
  peppers: KeyRing,
): Promise<{ valid: boolean; stale: boolean }> {
  if (stored.startsWith('scrypt$')) {
    const valid = await verifySecret(secret, stored);
    return { valid, stale: valid };
  }
  const [scheme, kid, mac] = stored.split('$');
  const pepper = kid === undefined ? undefined : peppers.byId.get(kid);
  if (scheme !== CLIENT_SECRET_SCHEME || !pepper || !mac) return { valid: false, stale: false };
  const expected = Buffer.from(mac, 'base64url');
  const actual = clientSecretMac(secret, pepper);
  const valid = expected.length === actual.length && timingSafeEqual(actual, expected);
  return { valid, stale: valid && kid !== peppers.current.kid };
}

export function newClientSecret(): string {
  // Drawn again until it mixes upper and lower case and digits (about 1 draw in 200 has no digit),
  // so that the secret scanner (security/secret-scanner.ts) knows every issued secret by its shape.
  for (;;) {
    const secret = randomBytes(24).toString('base64url');
    if (/[A-Z]/.test(secret) && /[a-z]/.test(secret) && /\d/.test(secret)) return secret;
  }
}

const PASSWORD_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A first console password, shown once: 4 groups of 5 unambiguous characters (about 99 bits). */
export function newConsolePassword(): string {
  const characters = Array.from({ length: 20 }, () => PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)]);
  return [0, 5, 10, 15].map((start) => characters.slice(start, start + 5).join('')).join('-');
}
