import { sign, verify, type KeyObject } from 'node:crypto';

/** The `signature` header: base64 RSA-SHA512 over the raw body (as Pay-me notifications). */
export function signBody(body: string, privateKey: KeyObject): string {
  return sign('sha512', Buffer.from(body), privateKey).toString('base64');
}

/**
 * The `timestamp-signature` header of a callback: base64 RSA-SHA512 over `event id.timestamp.body`,
 * so a receiver can refuse an old or replayed callback (`signature-timestamp` gives the seconds).
 */
export function signTimestamped(eventId: string, timestamp: number, body: string, privateKey: KeyObject): string {
  return sign('sha512', Buffer.from(`${eventId}.${timestamp}.${body}`), privateKey).toString('base64');
}

export function verifyBody(body: string, signature: string, publicKeyPem: string): boolean {
  return verify('sha512', Buffer.from(body), publicKeyPem, Buffer.from(signature, 'base64'));
}
