import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signBody, verifyBody } from './sign';

describe('callback signatures', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();

  it('verify over the exact raw body only', () => {
    const body = '{"event_id":"e1","event_type":"transaction.authorized"}';
    const signature = signBody(body, privateKey);
    expect(Buffer.from(signature, 'base64')).toHaveLength(256);
    expect(verifyBody(body, signature, publicPem)).toBe(true);
    expect(verifyBody(body.replace('e1', 'e2'), signature, publicPem)).toBe(false);
    expect(verifyBody(`${body} `, signature, publicPem)).toBe(false);
  });
});
