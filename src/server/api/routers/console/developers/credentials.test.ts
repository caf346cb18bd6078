import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@/generated/prisma/client';
import type { ConsoleSession } from '@/server/modules/access/console-session';
import { issueCredential } from '@/server/modules/access/credentials';
import { createFacilitator } from '@/server/modules/merchants/merchants';
import { openTestDatabase, refusal, sessionAs, SETUP_TIMEOUT, testMerchant } from '@tests/support/procedure-test-support';
import { can } from '@/server/modules/access/policy';

// console.credentials, console.issueCredential and console.revokeCredential, role by role:
// every role reads its merchant's credentials (the page shows viewers the list), only admins
// issue or revoke, a merchant user never reaches another merchant's, and a platform admin acts
// for the merchant it names.
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let prisma: PrismaClient;
const ids: Record<'A' | 'B', string> = { A: '', B: '' };
const clients: Record<'A' | 'B' | 'facilitator', string> = { A: '', B: '', facilitator: '' };
const SCOPES: ('create:token' | 'get:charges')[] = ['create:token', 'get:charges'];

const caller = (session?: ConsoleSession) => database.caller(session);
const as = (role: ConsoleSession['role'], merchant?: 'A' | 'B') => sessionAs(role, merchant ? ids[merchant] : null);

/** What the database holds of every credential: owner, label and whether it is revoked. */
async function stored() {
  const rows = await prisma.apiCredential.findMany({
    orderBy: { createdAt: 'asc' },
    select: { clientId: true, label: true, revokedAt: true, merchant: { select: { code: true } } },
  });
  return rows.map((row) => ({
    clientId: row.clientId,
    merchant: row.merchant?.code ?? null,
    label: row.label,
    revoked: row.revokedAt !== null,
  }));
}

const revokedAt = async (clientId: string) =>
  (await prisma.apiCredential.findUniqueOrThrow({ where: { clientId }, select: { revokedAt: true } })).revokedAt;

beforeAll(async () => {
  database = await openTestDatabase();
  prisma = database.prisma;
  for (const code of ['A', 'B'] as const) {
    ids[code] = (await testMerchant(prisma, `SHOP${code}`)).id;
    clients[code] = (await issueCredential(prisma, { owner: { merchantCode: `SHOP${code}` }, label: `web ${code}` })).client_id;
  }
  await createFacilitator(prisma, { code: 'FAC1', name: 'Facilitator' });
  clients.facilitator = (await issueCredential(prisma, { owner: { facilitatorCode: 'FAC1' }, label: 'facilitator' })).client_id;
}, SETUP_TIMEOUT);

afterAll(() => database?.close());

describe('console.credentials', () => {
  it('refuses anyone not signed in', async () => {
    expect(await refusal(() => caller().console.credentials({}))).toBe('UNAUTHENTICATED');
  });

  it("lists a merchant user's own credentials, for viewers too, without secrets", async () => {
    for (const role of ['MERCHANT_ADMIN', 'MERCHANT_VIEWER'] as const) {
      const list = await caller(as(role, 'A')).console.credentials({});
      expect(list.map((row) => [row.client_id, row.owner, row.label, row.revoked_at])).toEqual([
        [clients.A, 'merchant:SHOPA', 'web A', null],
      ]);
      expect(JSON.stringify(list)).not.toMatch(/secret|scrypt/i);
    }
  });

  it('answers not found when a merchant user names another merchant, and shows nothing of it', async () => {
    for (const role of ['MERCHANT_ADMIN', 'MERCHANT_VIEWER'] as const) {
      expect(await refusal(() => caller(as(role, 'A')).console.credentials({ merchantCode: 'SHOPB' }))).toBe('NOT_FOUND');
    }
    expect(await refusal(() => caller(as('MERCHANT_ADMIN', 'A')).console.credentials({ merchantCode: 'SHOPA' }))).toBe('allowed');
  });

  it('makes platform staff name a merchant, then lists that one', async () => {
    for (const role of ['SUPPORT', 'PLATFORM_ADMIN'] as const) {
      expect(await refusal(() => caller(as(role)).console.credentials({}))).toBe('VALIDATION');
      const list = await caller(as(role)).console.credentials({ merchantCode: 'SHOPB' });
      expect(list.map((row) => row.client_id)).toEqual([clients.B]);
      expect(await refusal(() => caller(as(role)).console.credentials({ merchantCode: 'NOSUCH' }))).toBe('NOT_FOUND');
    }
  });
});

describe('console.issueCredential and console.revokeCredential', () => {
  it('are refused to viewers and support, and nothing is issued or revoked', async () => {
    const before = await stored();
    for (const session of [as('MERCHANT_VIEWER', 'A'), as('SUPPORT')]) {
      const named = can(session.role, 'merchants:all') ? { merchantCode: 'SHOPA' } : {};
      expect(await refusal(() => caller(session).console.issueCredential({ ...named, scopes: SCOPES, label: 'nope' }))).toBe(
        'FORBIDDEN',
      );
      expect(await refusal(() => caller(session).console.revokeCredential({ clientId: clients.A }))).toBe('FORBIDDEN');
    }
    expect(await stored()).toEqual(before);
    expect(before.every((row) => !row.revoked)).toBe(true);
  });

  it("keep a merchant admin from another merchant's credentials: not found, and B's stays active", async () => {
    const before = await stored();
    const admin = caller(as('MERCHANT_ADMIN', 'A'));
    expect(await refusal(() => admin.console.revokeCredential({ clientId: clients.B }))).toBe('NOT_FOUND');
    expect(await refusal(() => admin.console.revokeCredential({ clientId: clients.facilitator }))).toBe('NOT_FOUND');
    expect(await refusal(() => admin.console.revokeCredential({ clientId: 'cli_unknown' }))).toBe('NOT_FOUND');
    expect(await refusal(() => admin.console.issueCredential({ merchantCode: 'SHOPB', scopes: SCOPES, label: 'for B' }))).toBe(
      'NOT_FOUND',
    );
    expect(await stored()).toEqual(before);
    expect(await revokedAt(clients.B)).toBeNull();
    expect(await revokedAt(clients.facilitator)).toBeNull();
  });

  it('let a merchant admin issue for its merchant (secret shown once, stored hashed) and revoke it', async () => {
    const admin = caller(as('MERCHANT_ADMIN', 'A'));
    const issued = await admin.console.issueCredential({ scopes: SCOPES, label: 'tienda' });
    expect(issued.scopes).toEqual(SCOPES);
    expect(issued.client_secret).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    const row = await prisma.apiCredential.findUniqueOrThrow({
      where: { clientId: issued.client_id },
      select: { merchantId: true, scopes: true, label: true, secretHash: true, revokedAt: true },
    });
    expect(row).toMatchObject({ merchantId: ids.A, scopes: SCOPES, label: 'tienda', revokedAt: null });
    expect(row.secretHash).not.toContain(issued.client_secret);

    expect(await admin.console.revokeCredential({ clientId: issued.client_id })).toEqual({
      client_id: issued.client_id,
      revoked: true,
    });
    const revoked = await revokedAt(issued.client_id);
    expect(revoked).toBeInstanceOf(Date);
    // Revoking again changes nothing (the first revocation time stays).
    await admin.console.revokeCredential({ clientId: issued.client_id });
    expect(await revokedAt(issued.client_id)).toEqual(revoked);
    expect(await revokedAt(clients.A)).toBeNull();
  });

  it('refuse scopes without create:token or outside the list', async () => {
    const admin = caller(as('MERCHANT_ADMIN', 'A'));
    const before = await prisma.apiCredential.count();
    expect(await refusal(() => admin.console.issueCredential({ scopes: ['get:charges'], label: 'x' }))).toBe('VALIDATION');
    expect(
      await refusal(() => admin.console.issueCredential({ scopes: ['create:token', 'admin' as 'get:charges'], label: 'x' })),
    ).toBe('VALIDATION');
    expect(await prisma.apiCredential.count()).toBe(before);
  });

  it("let a platform admin issue for the merchant it names and revoke any merchant's or facilitator's", async () => {
    const platform = caller(as('PLATFORM_ADMIN'));
    const before = await prisma.apiCredential.count();
    expect(await refusal(() => platform.console.issueCredential({ scopes: SCOPES, label: 'x' }))).toBe('VALIDATION');
    expect(await prisma.apiCredential.count()).toBe(before);
    const issued = await platform.console.issueCredential({ merchantCode: 'SHOPB', scopes: SCOPES, label: 'by staff' });
    expect(
      (await prisma.apiCredential.findUniqueOrThrow({ where: { clientId: issued.client_id }, select: { merchantId: true } }))
        .merchantId,
    ).toBe(ids.B);
    await platform.console.revokeCredential({ clientId: clients.B });
    await platform.console.revokeCredential({ clientId: clients.facilitator });
    expect(await revokedAt(clients.B)).toBeInstanceOf(Date);
    expect(await revokedAt(clients.facilitator)).toBeInstanceOf(Date);
    expect(await revokedAt(clients.A)).toBeNull();
  });
});
