import { SignJWT, decodeJwt, exportJWK, generateKeyPair, importJWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken, verifyAccessToken } from './jwt';
import type { SigningKey } from '@/server/platform/security/service-keys';

const issuer = 'https://pay.test/oauth';
const audience = 'https://pay.test/api/';
const now = new Date('2026-11-21T15:00:00Z');
const claims = { sub: 'cli_1', scope: 'create:token post:charges', merchant_code: 'M1' };

async function makeKey(kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  return { kid, privateKey, publicKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256' } };
}

let key: SigningKey;
let token: string;

beforeAll(async () => {
  key = await makeKey('k1');
  token = await signAccessToken(key, claims, { issuer, audience, ttlSeconds: 3600, now });
});

const verify = (candidate: string, at = now, options: { issuer?: string; audience?: string } = {}) =>
  verifyAccessToken(candidate, key, { issuer: options.issuer ?? issuer, audience: options.audience ?? audience, now: at });

describe('access tokens', () => {
  it('carry iss, aud, sub, merchant_code, scope, iat, exp = iat + ttl and a jti', async () => {
    const payload = decodeJwt(token);
    expect(payload).toMatchObject({ iss: issuer, aud: audience, sub: 'cli_1', merchant_code: 'M1', scope: claims.scope });
    expect(payload.iat).toBe(Math.floor(now.getTime() / 1000));
    expect(payload.exp).toBe(payload.iat! + 3600);
    expect(payload.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(await verify(token)).toMatchObject(claims);
  });

  it('expire at exp', async () => {
    expect(await verify(token, new Date(now.getTime() + 3599_000))).not.toBeNull();
    expect(await verify(token, new Date(now.getTime() + 3601_000))).toBeNull();
  });

  it('are refused with another audience or issuer', async () => {
    expect(await verify(token, now, { audience: 'https://other.test/api/' })).toBeNull();
    expect(await verify(token, now, { issuer: 'https://other.test/oauth' })).toBeNull();
  });

  it('are refused when tampered, unsigned, HMAC-signed with the public key, or signed by another key', async () => {
    const [header, payload, signature] = token.split('.');
    const edited = Buffer.from(JSON.stringify({ ...decodeJwt(token), merchant_code: 'M2' })).toString('base64url');
    expect(await verify(`${header}.${edited}.${signature}`)).toBeNull();
    expect(await verify(`${header}.${payload}.`)).toBeNull();
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    expect(await verify(`${none}.${payload}.`)).toBeNull();
    const hmacKey = await importJWK({ kty: 'oct', k: Buffer.from(JSON.stringify(key.publicJwk)).toString('base64url') }, 'HS256');
    const confused = await new SignJWT(decodeJwt(token)).setProtectedHeader({ alg: 'HS256', kid: 'k1' }).sign(hmacKey);
    expect(await verify(confused)).toBeNull();
    const other = await makeKey('k1');
    expect(await verify(await signAccessToken(other, claims, { issuer, audience, ttlSeconds: 3600, now }))).toBeNull();
  });

  it('are refused before nbf and with an unknown kid', async () => {
    const early = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(issuer)
      .setAudience(audience)
      .setIssuedAt(Math.floor(now.getTime() / 1000))
      .setNotBefore(Math.floor(now.getTime() / 1000) + 600)
      .setExpirationTime(Math.floor(now.getTime() / 1000) + 3600)
      .setJti('j')
      .sign(key.privateKey);
    expect(await verify(early)).toBeNull();
    const otherKid = await signAccessToken({ ...key, kid: 'k2' }, claims, { issuer, audience, ttlSeconds: 3600, now });
    expect(await verify(otherKid)).toBeNull();
  });

  it('are refused when issued in the future beyond a minute of clock skew', async () => {
    const at = (offsetSeconds: number) =>
      signAccessToken(key, claims, { issuer, audience, ttlSeconds: 3600, now: new Date(now.getTime() + offsetSeconds * 1000) });
    expect(await verify(await at(30))).not.toBeNull();
    expect(await verify(await at(120))).toBeNull();
  });
});
