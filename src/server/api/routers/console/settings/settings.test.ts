import { toActingMerchant } from '@/server/modules/access/acting-merchant';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@/generated/prisma/client';
import type { ConsoleSession, Role } from '@/server/modules/access/console-session';
import { liveConsoleSession } from '@/server/modules/access/live-session';
import { verifySecret } from '@/server/platform/security/secrets';
import { authorizeCharge } from '@/server/modules/charges/authorize-charge';
import { createConsoleUser } from '@/server/modules/access/users';
import { chargeRequest, openTestDatabase, refusal, SETUP_TIMEOUT } from '@tests/support/procedure-test-support';

// Every role rule of console.settings.*: who reads and changes a merchant's settings and people.
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let prisma: PrismaClient;
const users: Record<string, ConsoleSession> = {};

async function user(key: string, role: Role, merchantCode?: string): Promise<void> {
  const created = await createConsoleUser(prisma, {
    email: `${key}@test.pe`,
    password: 'a-long-password-1',
    role,
    merchantCode,
  });
  const merchant = merchantCode ? await prisma.merchant.findUniqueOrThrow({ where: { code: merchantCode } }) : null;
  users[key] = { userId: created.id, email: created.email, role, merchantId: merchant?.id ?? null };
}

const as = (key: string) => database.caller(users[key]);
const stored = (code: string) => prisma.merchant.findUniqueOrThrow({ where: { code } });
const storedUser = (key: string) => prisma.consoleUser.findUniqueOrThrow({ where: { id: users[key]!.userId! } });

async function chargeAs(code: string, method: 'CARD' | 'QR', number: string) {
  const merchant = await stored(code);
  const acting = toActingMerchant(merchant);
  return authorizeCharge(prisma, acting, chargeRequest(code, number, method));
}

beforeAll(async () => {
  database = await openTestDatabase();
  prisma = database.prisma;
  for (const code of ['SETA', 'SETB']) await prisma.merchant.create({ data: { code, name: `Shop ${code}` } });
  await user('adminA', 'MERCHANT_ADMIN', 'SETA');
  await user('admin2A', 'MERCHANT_ADMIN', 'SETA');
  await user('viewerA', 'MERCHANT_VIEWER', 'SETA');
  await user('adminB', 'MERCHANT_ADMIN', 'SETB');
  await user('viewerB', 'MERCHANT_VIEWER', 'SETB');
  await user('platform', 'PLATFORM_ADMIN');
  await user('support', 'SUPPORT');
}, SETUP_TIMEOUT);

afterAll(() => database.close());

describe('reading settings', () => {
  it('refuses anyone not signed in', async () => {
    expect(await refusal(() => database.caller().console.settings.merchant({}))).toBe('UNAUTHENTICATED');
    expect(await refusal(() => database.caller().console.settings.users({}))).toBe('UNAUTHENTICATED');
  });

  it("shows a merchant user its own merchant, never another's", async () => {
    const own = await as('viewerA').console.settings.merchant({});
    expect([own.code, own.name, own.enabledMethods.length]).toEqual(['SETA', 'Shop SETA', 6]);
    expect(own.expiries.map((row) => [row.method, row.defaultSeconds, row.overrideSeconds])).toEqual([
      ['BANK_TRANSFER', 1800, null],
      ['CUOTEALO', 3600, null],
      ['PAGOEFECTIVO', 86_400, null],
      ['QR', 900, null],
    ]);
    expect((await as('viewerA').console.settings.merchant({ merchantCode: 'SETA' })).code).toBe('SETA');
    expect(await refusal(() => as('viewerA').console.settings.merchant({ merchantCode: 'SETB' }))).toBe('NOT_FOUND');
    expect(await refusal(() => as('adminA').console.settings.users({ merchantCode: 'SETB' }))).toBe('NOT_FOUND');
    const people = await as('viewerA').console.settings.users({});
    expect(people.map((row) => row.email)).toEqual(['admina@test.pe', 'admin2a@test.pe', 'viewera@test.pe']);
  });

  it('has platform staff name the merchant', async () => {
    expect(await refusal(() => as('support').console.settings.merchant({}))).toBe('VALIDATION');
    expect((await as('support').console.settings.merchant({ merchantCode: 'SETB' })).code).toBe('SETB');
    expect(await refusal(() => as('platform').console.settings.merchant({ merchantCode: 'NOPE' }))).toBe('NOT_FOUND');
    const people = await as('support').console.settings.users({ merchantCode: 'SETB' });
    expect(people.map((row) => [row.email, row.role])).toEqual([
      ['adminb@test.pe', 'MERCHANT_ADMIN'],
      ['viewerb@test.pe', 'MERCHANT_VIEWER'],
    ]);
  });
});

describe('read-only roles change nothing', () => {
  it.each(['viewerA', 'support'])('%s gets FORBIDDEN from every change', async (key) => {
    const merchantCode = key === 'support' ? 'SETA' : undefined;
    const settings = as(key).console.settings;
    const target = users.admin2A!.userId!;
    const attempts = [
      () => settings.updateProfile({ merchantCode, name: 'Hacked', supportEmail: null }),
      () => settings.updateMethods({ merchantCode, enabledMethods: ['CARD'] }),
      () => settings.updateExpiries({ merchantCode, expiryMinutes: { QR: 5 } }),
      () => settings.addUser({ merchantCode, email: `${key}-new@test.pe`, name: '', role: 'MERCHANT_VIEWER' }),
      () => settings.setUserRole({ userId: target, role: 'MERCHANT_VIEWER' }),
      () => settings.setUserDisabled({ userId: target, disabled: true }),
    ];
    for (const attempt of attempts) expect(await refusal(attempt)).toBe('FORBIDDEN');
    const merchant = await stored('SETA');
    expect([merchant.name, merchant.enabledMethods.length, merchant.expirySeconds]).toEqual(['Shop SETA', 6, {}]);
    expect(await prisma.consoleUser.count({ where: { email: `${key}-new@test.pe` } })).toBe(0);
    const admin2 = await storedUser('admin2A');
    expect([admin2.role, admin2.disabledAt]).toEqual(['MERCHANT_ADMIN', null]);
  });
});

describe('a merchant admin changes its merchant', () => {
  it('edits the profile; the code is not editable', async () => {
    const saved = await as('adminA').console.settings.updateProfile({
      name: '  Bodega Ana S.A.C. ',
      supportEmail: 'ayuda@bodega.pe',
    });
    expect([saved.code, saved.name, saved.supportEmail]).toEqual(['SETA', 'Bodega Ana S.A.C.', 'ayuda@bodega.pe']);
    const settings = as('adminA').console.settings;
    expect(await refusal(() => settings.updateProfile({ name: '', supportEmail: null }))).toBe('VALIDATION');
    expect(await refusal(() => settings.updateProfile({ name: 'x', supportEmail: 'not-an-email' }))).toBe('VALIDATION');
    const withCode = { name: 'x', supportEmail: null, code: 'OTHER' } as unknown as { name: string; supportEmail: null };
    expect(await refusal(() => settings.updateProfile(withCode))).toBe('VALIDATION');
    expect((await stored('SETA')).code).toBe('SETA');
  });

  it("never touches another merchant's settings", async () => {
    const settings = as('adminA').console.settings;
    expect(await refusal(() => settings.updateProfile({ merchantCode: 'SETB', name: 'Mine', supportEmail: null }))).toBe(
      'NOT_FOUND',
    );
    expect(await refusal(() => settings.updateMethods({ merchantCode: 'SETB', enabledMethods: ['CARD'] }))).toBe('NOT_FOUND');
    expect(await refusal(() => settings.updateExpiries({ merchantCode: 'SETB', expiryMinutes: { QR: 1 } }))).toBe('NOT_FOUND');
    const other = await stored('SETB');
    expect([other.name, other.enabledMethods.length, other.expirySeconds]).toEqual(['Shop SETB', 6, {}]);
  });

  it('disables a method, which POST /charges then refuses with 422 42, and enables it again', async () => {
    const settings = as('adminA').console.settings;
    expect(await refusal(() => settings.updateMethods({ enabledMethods: [] }))).toBe('VALIDATION');
    expect(await refusal(() => settings.updateMethods({ enabledMethods: ['CARD', 'CARD'] }))).toBe('VALIDATION');
    const saved = await settings.updateMethods({ enabledMethods: ['YAPE', 'CARD'] });
    expect(saved.enabledMethods).toEqual(['CARD', 'YAPE']);
    expect(await refusal(() => chargeAs('SETA', 'QR', 'qr-off'))).toBe('METHOD_RULE');
    expect((await chargeAs('SETA', 'CARD', 'card-on')).transaction.state).toBe('AUTORIZADO');
    await settings.updateMethods({ enabledMethods: ['CARD', 'YAPE', 'BANK_TRANSFER', 'CUOTEALO', 'PAGOEFECTIVO', 'QR'] });
    expect((await chargeAs('SETA', 'QR', 'qr-on')).transaction.state).toBe('PENDIENTE');
  });

  it('sets expiries in minutes within bounds, stores seconds, and clears one back to the default', async () => {
    const settings = as('adminA').console.settings;
    for (const minutes of [0, 43_201, 1.5, -3]) {
      expect(await refusal(() => settings.updateExpiries({ expiryMinutes: { QR: minutes } }))).toBe('VALIDATION');
    }
    const unknown = { expiryMinutes: { CARD: 5 } } as unknown as { expiryMinutes: { QR: number } };
    expect(await refusal(() => settings.updateExpiries(unknown))).toBe('VALIDATION');
    await settings.updateExpiries({ expiryMinutes: { QR: 10, PAGOEFECTIVO: 43_200 } });
    expect((await stored('SETA')).expirySeconds).toEqual({ QR: 600, PAGOEFECTIVO: 2_592_000 });
    const qr = await chargeAs('SETA', 'QR', 'qr-ten');
    const lifetime =
      Date.parse(qr.transaction.expiration_date!.utc_time) - Date.parse(qr.transaction.lifecycle.at(-1)!.date.utc_time);
    expect(Math.round(lifetime / 1000)).toBe(600);
    const cleared = await settings.updateExpiries({ expiryMinutes: { PAGOEFECTIVO: null } });
    expect(cleared.expiries.find((row) => row.method === 'QR')!.overrideSeconds).toBe(600);
    expect(cleared.expiries.find((row) => row.method === 'PAGOEFECTIVO')!.overrideSeconds).toBeNull();
    expect((await stored('SETA')).expirySeconds).toEqual({ QR: 600 });
  });
});

describe('people', () => {
  it('adds a merchant user with a generated password shown once; never a platform role', async () => {
    const added = await as('adminA').console.settings.addUser({
      email: 'New.Viewer@Test.pe',
      name: 'Nueva',
      role: 'MERCHANT_VIEWER',
    });
    expect(added.user).toMatchObject({ email: 'new.viewer@test.pe', name: 'Nueva', role: 'MERCHANT_VIEWER', disabledAt: null });
    expect(added.password).toMatch(/^[a-z2-9]{5}(-[a-z2-9]{5}){3}$/);
    const row = await prisma.consoleUser.findUniqueOrThrow({ where: { id: added.user.id } });
    expect([row.merchantId, await verifySecret(added.password, row.passwordHash)]).toEqual([users.adminA!.merchantId, true]);
    expect(row.passwordHash).not.toContain(added.password);
    const settings = as('adminA').console.settings;
    for (const role of ['PLATFORM_ADMIN', 'SUPPORT']) {
      const input = { email: `${role}@test.pe`, name: '', role } as unknown as Parameters<typeof settings.addUser>[0];
      expect(await refusal(() => settings.addUser(input))).toBe('VALIDATION');
    }
    expect(await refusal(() => settings.addUser({ email: 'viewerb@test.pe', name: '', role: 'MERCHANT_VIEWER' }))).toBe(
      'CONFLICT',
    );
    expect(
      await refusal(() => settings.addUser({ merchantCode: 'SETB', email: 'sneaky@test.pe', name: '', role: 'MERCHANT_ADMIN' })),
    ).toBe('NOT_FOUND');
    expect(await prisma.consoleUser.count({ where: { role: { in: ['PLATFORM_ADMIN', 'SUPPORT'] } } })).toBe(2);
  });

  it('changes roles and disables and enables users of its merchant only', async () => {
    const settings = as('adminA').console.settings;
    const viewer = users.viewerA!.userId!;
    expect((await settings.setUserRole({ userId: viewer, role: 'MERCHANT_ADMIN' })).role).toBe('MERCHANT_ADMIN');
    expect((await settings.setUserRole({ userId: viewer, role: 'MERCHANT_VIEWER' })).role).toBe('MERCHANT_VIEWER');
    expect((await settings.setUserDisabled({ userId: viewer, disabled: true })).disabledAt).not.toBeNull();
    expect((await storedUser('viewerA')).disabledAt).not.toBeNull();
    expect((await settings.setUserDisabled({ userId: viewer, disabled: false })).disabledAt).toBeNull();
    for (const other of ['adminB', 'viewerB', 'platform', 'support']) {
      const userId = users[other]!.userId!;
      expect(await refusal(() => settings.setUserDisabled({ userId, disabled: true }))).toBe('NOT_FOUND');
      expect(await refusal(() => settings.setUserRole({ userId, role: 'MERCHANT_VIEWER' }))).toBe('NOT_FOUND');
    }
    expect(
      await refusal(() => settings.setUserDisabled({ userId: '00000000-0000-4000-8000-000000000000', disabled: true })),
    ).toBe('NOT_FOUND');
    expect((await storedUser('adminB')).disabledAt).toBeNull();
    expect((await storedUser('platform')).disabledAt).toBeNull();
  });

  it('cannot disable or demote itself', async () => {
    const self = users.adminA!.userId!;
    const settings = as('adminA').console.settings;
    expect(await refusal(() => settings.setUserDisabled({ userId: self, disabled: true }))).toBe('FORBIDDEN');
    expect(await refusal(() => settings.setUserRole({ userId: self, role: 'MERCHANT_VIEWER' }))).toBe('FORBIDDEN');
    const row = await storedUser('adminA');
    expect([row.role, row.disabledAt]).toEqual(['MERCHANT_ADMIN', null]);
  });

  it('never leaves a merchant without an active admin', async () => {
    const settings = as('adminA').console.settings;
    await settings.setUserDisabled({ userId: users.admin2A!.userId!, disabled: true });
    // adminA is now the only active admin: a platform admin may not disable or demote it either.
    const platform = as('platform').console.settings;
    const self = users.adminA!.userId!;
    expect(await refusal(() => platform.setUserDisabled({ userId: self, disabled: true }))).toBe('STATE_CONFLICT');
    expect(await refusal(() => platform.setUserRole({ userId: self, role: 'MERCHANT_VIEWER' }))).toBe('STATE_CONFLICT');
    expect(await refusal(() => platform.setUserDisabled({ userId: users.adminB!.userId!, disabled: true }))).toBe(
      'STATE_CONFLICT',
    );
    // A disabled admin does not count, and enabling it again makes the demotion possible.
    await platform.setUserDisabled({ userId: users.admin2A!.userId!, disabled: false });
    expect((await platform.setUserRole({ userId: self, role: 'MERCHANT_VIEWER' })).role).toBe('MERCHANT_VIEWER');
    await platform.setUserRole({ userId: self, role: 'MERCHANT_ADMIN' });
  });

  it('lets a platform admin manage any merchant, naming it', async () => {
    const platform = as('platform').console.settings;
    const saved = await platform.updateMethods({ merchantCode: 'SETB', enabledMethods: ['CARD'] });
    expect(saved.enabledMethods).toEqual(['CARD']);
    const added = await platform.addUser({ merchantCode: 'SETB', email: 'first@setb.pe', name: '', role: 'MERCHANT_ADMIN' });
    expect((await prisma.consoleUser.findUniqueOrThrow({ where: { id: added.user.id } })).merchantId).toBe(
      users.adminB!.merchantId,
    );
    expect(await refusal(() => platform.addUser({ email: 'nowhere@test.pe', name: '', role: 'MERCHANT_ADMIN' }))).toBe(
      'VALIDATION',
    );
  });
});

describe('sessions follow the user', () => {
  it('ends when the role changes (the user signs in again under the new one) and when the user is disabled', async () => {
    const admin = as('platform').console.settings;
    const viewer = users.viewerB!;
    expect(await liveConsoleSession(prisma, viewer)).toEqual({ ...viewer, generation: 0 });
    await admin.setUserRole({ userId: viewer.userId!, role: 'MERCHANT_ADMIN' });
    expect(await liveConsoleSession(prisma, viewer)).toBeNull();
    const signedInAgain = { ...viewer, generation: 1 };
    expect((await liveConsoleSession(prisma, signedInAgain))?.role).toBe('MERCHANT_ADMIN');
    await admin.setUserDisabled({ userId: viewer.userId!, disabled: true });
    expect(await liveConsoleSession(prisma, signedInAgain)).toBeNull();
    expect(await liveConsoleSession(prisma, { ...signedInAgain, userId: 'not-a-uuid' })).toBeNull();
  });
});
