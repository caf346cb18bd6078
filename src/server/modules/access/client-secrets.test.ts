import { createHash, createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { refusal, withTestMerchant } from '@tests/support/procedure-test-support';
import { clientSecretPeppers, issueCredential } from '@/server/modules/access/credentials';
import { issueToken } from '@/server/modules/access/issue-token';
import { keyRing } from '@/server/platform/security/sealed-box';
import { hashClientSecret, hashSecret, newClientSecret, verifyClientSecret } from '@/server/platform/security/secrets';

// Issue 31, point 2: client secrets, drawn by the service, are checked with HMAC-SHA-256 under a
// pepper; the scrypt hashes stored before verify once and are rewritten on that use.

const fixture = withTestMerchant('SECR1');

const tokenBody = (client: { client_id: string; client_secret: string }) => ({
  grant_type: 'client_credentials',
  client_id: client.client_id,
  client_secret: client.client_secret,
});

async function storedHash(clientId: string): Promise<string> {
  const row = await fixture.db.prisma.apiCredential.findUniqueOrThrow({ where: { clientId }, select: { secretHash: true } });
  return row.secretHash;
}

const ringOf = (...kids: string[]) => keyRing(kids.map((kid) => ({ kid, key: randomBytes(32) })));

describe('client secrets', () => {
  it('are stored as an HMAC under the kept pepper, which reveals neither the secret nor its bare digest', async () => {
    const client = await issueCredential(fixture.db.prisma, { owner: { merchantCode: 'SECR1' } });
    const stored = await storedHash(client.client_id);
    const pepper = (await clientSecretPeppers(fixture.db.prisma)).current;
    const kept = await fixture.db.prisma.serviceKey.findUniqueOrThrow({ where: { name: 'client-secret-pepper' } });
    expect(kept.value).toEqual({ kid: pepper.kid, key: pepper.key.toString('base64') });
    const mac = createHmac('sha256', pepper.key).update(client.client_secret).digest('base64url');
    expect(stored).toBe(`hmac-sha256$${pepper.kid}$${mac}`);
    expect(stored).not.toContain(client.client_secret);
    expect(stored).not.toContain(createHash('sha256').update(client.client_secret).digest('base64url'));
    expect(stored).not.toContain(createHash('sha256').update(client.client_secret).digest('hex'));
  });

  it('verify an old scrypt hash once and rewrite it as the HMAC, which verifies from then on', async () => {
    const client = await issueCredential(fixture.db.prisma, { owner: { merchantCode: 'SECR1' } });
    const legacy = await hashSecret(client.client_secret);
    await fixture.db.prisma.apiCredential.update({ where: { clientId: client.client_id }, data: { secretHash: legacy } });

    const first = await issueToken(fixture.db.prisma, tokenBody(client));
    expect(first.token_type).toBe('Bearer');
    const rewritten = await storedHash(client.client_id);
    const peppers = await clientSecretPeppers(fixture.db.prisma);
    expect(rewritten).toBe(hashClientSecret(client.client_secret, peppers));
    expect(rewritten).not.toBe(legacy);

    const second = await issueToken(fixture.db.prisma, tokenBody(client));
    expect(second.token_type).toBe('Bearer');
    expect(await storedHash(client.client_id)).toBe(rewritten);
  });

  it('refuse a wrong secret in either form, and leave the stored hash as it was', async () => {
    const client = await issueCredential(fixture.db.prisma, { owner: { merchantCode: 'SECR1' } });
    const wrong = { client_id: client.client_id, client_secret: newClientSecret() };
    const hmac = await storedHash(client.client_id);
    expect(await refusal(() => issueToken(fixture.db.prisma, tokenBody(wrong)))).toBe('INVALID_CLIENT');
    expect(await storedHash(client.client_id)).toBe(hmac);

    const legacy = await hashSecret(client.client_secret);
    await fixture.db.prisma.apiCredential.update({ where: { clientId: client.client_id }, data: { secretHash: legacy } });
    expect(await refusal(() => issueToken(fixture.db.prisma, tokenBody(wrong)))).toBe('INVALID_CLIENT');
    expect(await storedHash(client.client_id)).toBe(legacy);
    expect(await refusal(() => issueToken(fixture.db.prisma, { ...tokenBody(wrong), client_id: 'cli_nobody' }))).toBe(
      'INVALID_CLIENT',
    );
  });

  it('follow the pepper ring: the first hashes, another still verifies (and is stale), an unknown one never does', async () => {
    const secret = newClientSecret();
    const old = ringOf('old');
    const rotated = keyRing([{ kid: 'new', key: randomBytes(32) }, old.current]);
    const underOld = hashClientSecret(secret, old);
    expect(await verifyClientSecret(secret, underOld, old)).toEqual({ valid: true, stale: false });
    expect(await verifyClientSecret(secret, underOld, rotated)).toEqual({ valid: true, stale: true });
    expect(await verifyClientSecret(secret, hashClientSecret(secret, rotated), rotated)).toEqual({ valid: true, stale: false });
    expect(await verifyClientSecret(secret, underOld, ringOf('other'))).toEqual({ valid: false, stale: false });
    expect(await verifyClientSecret(`${secret}x`, underOld, rotated)).toEqual({ valid: false, stale: false });
    // Another pepper under the same id (a replaced, not rotated, key) does not verify either.
    expect(await verifyClientSecret(secret, underOld, ringOf('old'))).toEqual({ valid: false, stale: false });
    expect(await verifyClientSecret(secret, 'hmac-sha256$old$', old)).toEqual({ valid: false, stale: false });
    expect(await verifyClientSecret(secret, 'plain', old)).toEqual({ valid: false, stale: false });
  });
});
