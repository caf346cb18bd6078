import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withTestDatabase } from '@tests/support/procedure-test-support';
import { callbackKeys, keyIdOf, rotateCallbackKey } from './signing-keys';
import { signBody, verifyBody } from './sign';

// Callback signing keys: the first from what service_keys kept, then rotations whose replaced
// key stays published for the overlap and is gone after it.

const fixture = withTestDatabase();

describe('callback signing keys', () => {
  it('start from the key service_keys kept, named by its SPKI digest', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    await fixture.db.prisma.serviceKey.create({ data: { name: 'callback-signing-key', value: { privatePem } } });
    const { active, published } = await callbackKeys(fixture.db.prisma);
    expect(active.kid).toBe(keyIdOf(createPublicKey(privateKey)));
    expect(active.kid).toMatch(/^[0-9a-f]{16}$/);
    expect(published.map((key) => key.kid)).toEqual([active.kid]);
    expect(verifyBody('{}', signBody('{}', active.privateKey), active.publicKeyPem)).toBe(true);
  });

  it('rotate: the new key signs at once, the old one stays published until its overlap ends', async () => {
    const before = (await callbackKeys(fixture.db.prisma)).active;
    const rotated = await rotateCallbackKey(fixture.db.prisma, 7);
    expect(rotated.retired).toBe(before.kid);
    const after = await callbackKeys(fixture.db.prisma);
    expect(after.active.kid).toBe(rotated.kid);
    expect(after.active.kid).not.toBe(before.kid);
    expect(after.published.map((key) => [key.kid, key.retiresAt === null])).toEqual([
      [rotated.kid, true],
      [before.kid, false],
    ]);
    const days = (after.published[1]!.retiresAt!.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    // A body the old key signed still verifies with what is published.
    const stored = await fixture.db.prisma.callbackSigningKey.findUniqueOrThrow({ where: { kid: before.kid } });
    const signature = signBody('{"a":1}', createPrivateKey(stored.privatePem));
    expect(verifyBody('{"a":1}', signature, after.published[1]!.publicKeyPem)).toBe(true);
  });

  it('with no overlap, the replaced key is no longer published', async () => {
    const before = (await callbackKeys(fixture.db.prisma)).published.map((key) => key.kid);
    const rotated = await rotateCallbackKey(fixture.db.prisma, 0);
    const after = (await callbackKeys(fixture.db.prisma)).published.map((key) => key.kid);
    expect(after).toContain(rotated.kid);
    expect(after).not.toContain(rotated.retired);
    expect(after.filter((kid) => before.includes(kid))).toEqual(before.filter((kid) => kid !== rotated.retired));
  });
});
