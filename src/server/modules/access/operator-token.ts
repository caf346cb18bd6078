import { randomBytes, timingSafeEqual } from 'node:crypto';

// A token made at each start and written (mode 0600) to the service file, so that the
// operator CLI on this machine can call the admin procedures of the running service.
const slot = globalThis as typeof globalThis & { __payOperatorToken?: string };

export function operatorToken(): string {
  slot.__payOperatorToken ??= randomBytes(32).toString('base64url');
  return slot.__payOperatorToken;
}

export function isOperatorToken(candidate: string | null): boolean {
  const expected = slot.__payOperatorToken;
  if (!candidate || !expected) return false;
  const a = Buffer.from(candidate);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
