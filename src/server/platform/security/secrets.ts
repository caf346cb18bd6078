import { randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;
const N = 16_384;
const R = 8;
const P = 1;

/** Slow salted hash for client secrets and console passwords: scrypt$N$r$p$salt$hash. */
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
