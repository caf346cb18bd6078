import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { signBody } from '../../../src/server/modules/events/callbacks/sign';
import { fetchCallbackPublicKey, verifyCallbackSignature } from '../src/index.js';
import { BASE_URL } from './fake-service.js';
import { clientOnFake } from './setup.js';

// Callback signatures as the service makes them (src/server/modules/events/callbacks/sign.ts: base64 RSA-SHA512
// over the raw body), checked by the SDK's verifier with one key, several, or keys by id.

function keyPair() {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { privateKey, pem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}
const current = keyPair();
const previous = keyPair();
const body = '{"success":"true","action":"notify","event_id":"e-1","event_type":"transaction.authorized"}';
const signed = (privateKey: KeyObject, text = body) => signBody(text, privateKey);

describe('verifyCallbackSignature', () => {
  test('accepts the raw body signed by the key, as a string or as bytes', () => {
    const signature = signed(current.privateKey);
    expect(verifyCallbackSignature(body, signature, current.pem)).toBe(true);
    expect(verifyCallbackSignature(new TextEncoder().encode(body), signature, current.pem)).toBe(true);
  });

  test('refuses a changed body, a re-serialized body, another key, and missing or malformed signatures', () => {
    const signature = signed(current.privateKey);
    expect(verifyCallbackSignature(body.replace('e-1', 'e-2'), signature, current.pem)).toBe(false);
    expect(verifyCallbackSignature(JSON.stringify(JSON.parse(body), null, 1), signature, current.pem)).toBe(false);
    expect(verifyCallbackSignature(body, signature, previous.pem)).toBe(false);
    for (const bad of [undefined, null, '', 'not base64!', `${signature.slice(0, -8)}AAAAAAA=`]) {
      expect(verifyCallbackSignature(body, bad, current.pem)).toBe(false);
    }
  });

  test('with several keys (a rotation) any of them may have signed', () => {
    expect(verifyCallbackSignature(body, signed(previous.privateKey), [current.pem, previous.pem])).toBe(true);
    expect(verifyCallbackSignature(body, signed(current.privateKey), [previous.pem])).toBe(false);
  });

  test('keys by id: the named key only, or each when no id is given', () => {
    const keys = { 'k-2026': current.pem, 'k-2025': previous.pem };
    const signature = signed(previous.privateKey);
    expect(verifyCallbackSignature(body, signature, keys, 'k-2025')).toBe(true);
    expect(verifyCallbackSignature(body, signature, keys, 'k-2026')).toBe(false);
    expect(verifyCallbackSignature(body, signature, keys, 'unknown')).toBe(false);
    expect(verifyCallbackSignature(body, signature, keys)).toBe(true);
  });
});

describe('the published keys', () => {
  const pemAnswer = (pem: string) => () =>
    new Response(pem, { status: 200, headers: { 'content-type': 'application/x-pem-file' } });
  const keySet = (keys: Record<string, string>) => () =>
    Response.json({ keys: Object.entries(keys).map(([kid, pem]) => ({ kid, pem, kty: 'RSA', alg: 'RS512', use: 'sig' })) });

  test('are fetched from {base_url}/webhooks/keys without a token, once', async () => {
    const { client, service } = clientOnFake();
    service.answer(keySet({ 'k-now': current.pem }));
    expect(await client.callbacks.verify(body, signed(current.privateKey), { keyId: 'k-now' })).toBe(true);
    expect(await client.callbacks.verify(body, signed(previous.privateKey))).toBe(false);
    expect(service.calls.map((call) => `${call.method} ${call.path}`)).toEqual(['GET /api/webhooks/keys']);
    expect(service.calls[0]!.headers.authorization).toBeUndefined();
  });

  test('a key id not held fetches them again (a rotation), and both keys verify during the overlap', async () => {
    const { client, service, clock } = clientOnFake();
    service.answer(keySet({ 'k-old': previous.pem }), keySet({ 'k-old': previous.pem, 'k-new': current.pem }));
    expect(await client.callbacks.verify(body, signed(previous.privateKey), { keyId: 'k-old' })).toBe(true);
    clock.now += 6_000;
    expect(await client.callbacks.verify(body, signed(current.privateKey), { keyId: 'k-new' })).toBe(true);
    expect(await client.callbacks.verify(body, signed(previous.privateKey), { keyId: 'k-old' })).toBe(true);
    // The named key only: the old key's signature under the new key's id is refused.
    expect(await client.callbacks.verify(body, signed(previous.privateKey), { keyId: 'k-new' })).toBe(false);
    expect(service.calls).toHaveLength(2);
  });

  test('are fetched again when a signature fails with keys held over a minute', async () => {
    const { client, service, clock } = clientOnFake();
    service.answer(keySet({ a: previous.pem }), keySet({ b: current.pem }));
    expect(await client.callbacks.verify(body, signed(previous.privateKey))).toBe(true);
    clock.now += 61_000;
    expect(await client.callbacks.verify(body, signed(current.privateKey))).toBe(true);
    expect(service.calls).toHaveLength(2);
  });

  test('publicKey() is the PEM of the key signing now', async () => {
    const { client, service } = clientOnFake();
    service.answer(pemAnswer(current.pem));
    expect(await client.callbacks.publicKey()).toBe(current.pem);
    expect(service.calls.map((call) => call.path)).toEqual(['/api/webhooks/public-key']);
  });

  test('fetchCallbackPublicKey serves a receiver that has no API credentials', async () => {
    const { service } = clientOnFake();
    service.answer(pemAnswer(current.pem));
    expect(await fetchCallbackPublicKey(`${BASE_URL}/`, { fetch: service.fetch })).toBe(current.pem);
  });
});
