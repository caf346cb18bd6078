import { expect, test, type Browser, type Page } from '@playwright/test';
import { charge, chargeBody, operationNumber, read, tokenFor } from '../support/api-client';
import { expectPhoneWidth, procedureStatus, signIn, switchLanguage } from '../support/console';
import { createConsoleUser, createMerchant, operatorConsole, ORIGIN, uniqueCode } from '../support/service';
import { type ErrorReply } from '../support/api-types';

// /settings: a merchant's profile, methods, expiries and people. Every test makes its own merchant
// and users (the demo ones stay as other specs expect them); the demo owner only reads.

type ChargeReply = {
  transaction: {
    state: string;
    continue_url?: string;
    expiration_date?: { utc_time: string } | null;
    lifecycle: { state: string; date: { utc_time: string } }[];
  };
};

/** Seconds the payer gets: expiration_date minus the moment the payment became PENDIENTE. */
function lifetimeSeconds(reply: ChargeReply): number {
  const pending = reply.transaction.lifecycle.find((entry) => entry.state === 'PENDIENTE')!;
  return Math.round((Date.parse(reply.transaction.expiration_date!.utc_time) - Date.parse(pending.date.utc_time)) / 1000);
}

async function ownMerchantAdmin(prefix: string, name?: string) {
  const merchant = await createMerchant(prefix);
  const admin = await createConsoleUser('MERCHANT_ADMIN', merchant.code, name);
  return { merchant, admin };
}

async function userId(merchantCode: string, email: string): Promise<string> {
  const users = await operatorConsole().settings.users.query({ merchantCode });
  return users.find((user) => user.email === email)!.id;
}

/** A second browser, signed in as someone else (its own cookies and language). */
async function otherSession(browser: Browser, email: string, password: string, path = '/settings'): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: ORIGIN })).newPage();
  await signIn(page, email, path, password);
  return page;
}

const userRow = (page: Page, email: string) => page.getByTestId('user-row').filter({ hasText: email });

test('a merchant admin edits the profile, disables and enables a method, and sets a QR expiry', async ({
  page,
  request,
  browser,
}, testInfo) => {
  const { merchant, admin } = await ownMerchantAdmin('SET');
  const token = await tokenFor(request, merchant);
  await signIn(page, admin.email, '/settings', admin.password);
  await expect(page.getByRole('heading', { level: 1, name: 'Configuración' })).toBeVisible();
  await expect(page.getByTestId('merchant-code')).toHaveText(merchant.code);
  await expect(page.getByRole('textbox', { name: /código/i })).toHaveCount(0);

  await page.getByLabel('Nombre del comercio').fill('Bodega Ana S.A.C.');
  await page.getByLabel('Correo de soporte (opcional)').fill('ayuda@bodega-ana.pe');
  await page.getByRole('button', { name: 'Guardar perfil' }).click();
  await expect(page.getByText('Perfil guardado.')).toBeVisible();
  const saved = await operatorConsole().settings.merchant.query({ merchantCode: merchant.code });
  expect([saved.code, saved.name, saved.supportEmail]).toEqual([merchant.code, 'Bodega Ana S.A.C.', 'ayuda@bodega-ana.pe']);
  const bank = (await (
    await charge(request, token, chargeBody(merchant.code, operationNumber('set-bank'), 'BANK_TRANSFER'))
  ).json()) as ChargeReply;
  const payer = await (await browser.newContext()).newPage();
  await payer.goto(bank.transaction.continue_url!);
  await expect(payer.getByTestId('merchant')).toHaveText('Bodega Ana S.A.C.');
  await expect(payer.getByTestId('merchant-support')).toHaveAttribute('href', 'mailto:ayuda@bodega-ana.pe');

  await page.getByRole('checkbox', { name: 'QR', exact: true }).uncheck();
  await page.getByRole('button', { name: 'Guardar medios' }).click();
  await expect(page.getByText('Medios guardados.')).toBeVisible();
  const refused = await read<ErrorReply>(
    await charge(request, token, chargeBody(merchant.code, operationNumber('set-qr-off'), 'QR')),
  );
  expect([refused.status, refused.body.meta.status.code]).toEqual([422, '42']);
  expect(refused.body.errors[0]?.message).toBe('QR is not enabled for this merchant');
  await page.getByRole('checkbox', { name: 'QR', exact: true }).check();
  await page.getByRole('button', { name: 'Guardar medios' }).click();
  await expect(page.getByText('Medios guardados.')).toBeVisible();
  const allowed = await charge(request, token, chargeBody(merchant.code, operationNumber('set-qr-on'), 'QR'));
  expect(allowed.status()).toBe(200);
  expect(lifetimeSeconds((await allowed.json()) as ChargeReply)).toBe(900);

  await page.getByLabel('QR (minutos)').fill('7');
  await page.getByRole('button', { name: 'Guardar vencimientos' }).click();
  await expect(page.getByText('Vencimientos guardados.')).toBeVisible();
  await expect(page.getByTestId('expiry-QR')).toContainText('Vigente: 7 min');
  const seven = await charge(request, token, chargeBody(merchant.code, operationNumber('set-qr-7'), 'QR'));
  expect(lifetimeSeconds((await seven.json()) as ChargeReply)).toBe(420);
  expect((await operatorConsole().settings.merchant.query({ merchantCode: merchant.code })).expiries).toContainEqual({
    method: 'QR',
    defaultSeconds: 900,
    overrideSeconds: 420,
  });
  await page.screenshot({ path: testInfo.outputPath('settings.png'), fullPage: true });

  await page.getByRole('button', { name: 'Usar el valor por defecto (QR)' }).click();
  await page.getByRole('button', { name: 'Guardar vencimientos' }).click();
  await expect(page.getByTestId('expiry-QR')).toContainText('Vigente: 15 min (por defecto)');
  const back = await charge(request, token, chargeBody(merchant.code, operationNumber('set-qr-def'), 'QR'));
  expect(lifetimeSeconds((await back.json()) as ChargeReply)).toBe(900);
});

test('a merchant admin adds a viewer, changes a role and disables a user, but not itself', async ({ page, browser }) => {
  const { merchant, admin } = await ownMerchantAdmin('PPL', 'Dueña');
  const cashier = await createConsoleUser('MERCHANT_VIEWER', merchant.code, 'Cajero');
  await signIn(page, admin.email, '/settings', admin.password);

  const viewerEmail = `${uniqueCode('viewer').toLowerCase()}@test.pe`;
  const add = page.getByRole('form', { name: 'Agregar usuario' });
  await add.getByLabel('Correo').fill(viewerEmail);
  await add.getByLabel('Nombre').fill('Vera Consulta');
  await add.getByLabel('Rol').selectOption('MERCHANT_VIEWER');
  await add.getByRole('button', { name: 'Agregar usuario' }).click();
  const password = (await page.getByTestId('new-user-password').textContent())!;
  expect(password).toMatch(/^[a-z2-9]{5}(-[a-z2-9]{5}){3}$/);
  await expect(page.getByTestId('new-user')).toContainText('no se volverá a mostrar');
  await page.getByRole('button', { name: 'Listo' }).click();
  await expect(page.getByText(password)).toHaveCount(0);
  await expect(userRow(page, viewerEmail)).toContainText('Vera Consulta');
  await expect(userRow(page, viewerEmail)).toContainText('Consulta (solo lectura)');

  const viewer = await otherSession(browser, viewerEmail, password);
  await expect(viewer.getByTestId('read-only-note')).toBeVisible();
  await expect(viewer.getByLabel('Nombre del comercio')).toBeDisabled();
  await expect(viewer.getByRole('button', { name: /^Guardar/ })).toHaveCount(0);

  const self = userRow(page, admin.email);
  await expect(self).toContainText('No puedes cambiar tu propio rol ni desactivarte.');
  await expect(self.getByRole('button')).toHaveCount(0);
  await expect(self.getByRole('combobox')).toHaveCount(0);
  const ownId = await userId(merchant.code, admin.email);
  expect(await procedureStatus(page, 'console.settings.setUserDisabled', { userId: ownId, disabled: true })).toBe(403);
  expect(await procedureStatus(page, 'console.settings.setUserRole', { userId: ownId, role: 'MERCHANT_VIEWER' })).toBe(403);

  await page.getByLabel(`Rol de ${cashier.email}`).selectOption('MERCHANT_ADMIN');
  await expect(page.getByRole('alertdialog')).toContainText(`¿Cambiar el rol de ${cashier.email} a Administrador?`);
  await page.getByRole('button', { name: 'Sí, cambiar el rol' }).click();
  await expect(userRow(page, cashier.email).getByRole('cell').nth(2)).toHaveText('Administrador');

  const cashierPage = await otherSession(browser, cashier.email, cashier.password);
  await expect(cashierPage.getByRole('button', { name: 'Guardar perfil' })).toBeVisible();
  await page.getByRole('button', { name: `Desactivar a ${cashier.email}` }).click();
  await expect(page.getByRole('alertdialog')).toContainText('Ya no podrá ingresar');
  await page.getByRole('button', { name: 'Sí, desactivar' }).click();
  await expect(userRow(page, cashier.email).getByTestId('user-status')).toContainText('Desactivado');
  // The open session stops working at once, and signing in again is refused.
  await cashierPage.reload();
  await expect(cashierPage).toHaveURL(/\/login$/);
  await cashierPage.getByLabel('Correo', { exact: true }).fill(cashier.email);
  await cashierPage.getByLabel('Contraseña', { exact: true }).fill(cashier.password);
  await cashierPage.getByRole('button', { name: 'Ingresar', exact: true }).click();
  await expect(cashierPage.getByText('Correo o contraseña incorrectos')).toBeVisible();

  const users = await operatorConsole().settings.users.query({ merchantCode: merchant.code });
  expect(users.map((user) => [user.email, user.role, user.disabledAt !== null])).toEqual([
    [admin.email, 'MERCHANT_ADMIN', false],
    [cashier.email, 'MERCHANT_ADMIN', true],
    [viewerEmail, 'MERCHANT_VIEWER', false],
  ]);
});

test('a viewer sees /settings read-only, and every change it calls directly is refused with 403', async ({ page }) => {
  const { merchant, admin } = await ownMerchantAdmin('VWR');
  const viewer = await createConsoleUser('MERCHANT_VIEWER', merchant.code, 'Vera');
  await signIn(page, viewer.email, '/settings', viewer.password);
  await expect(page.getByTestId('read-only-note')).toHaveText(
    'Tu rol es de solo lectura: ves la configuración, pero no puedes cambiarla.',
  );
  await expect(page.getByTestId('user-row')).toHaveCount(2);
  await expect(page.getByRole('checkbox', { name: 'Tarjeta', exact: true })).toBeDisabled();
  await expect(page.getByLabel('QR (minutos)')).toBeDisabled();
  await expect(page.getByRole('button')).toHaveText(['English', 'Salir']);
  await expect(page.getByRole('form', { name: 'Agregar usuario' })).toHaveCount(0);
  await expectPhoneWidth(page);

  const before = await operatorConsole().settings.merchant.query({ merchantCode: merchant.code });
  const usersBefore = await operatorConsole().settings.users.query({ merchantCode: merchant.code });
  const adminId = await userId(merchant.code, admin.email);
  const attempts: [string, object][] = [
    ['updateProfile', { name: 'Cambiado', supportEmail: null }],
    ['updateMethods', { enabledMethods: ['CARD'] }],
    ['updateExpiries', { expiryMinutes: { QR: 5 } }],
    ['addUser', { email: `${uniqueCode('sneaky').toLowerCase()}@test.pe`, name: '', role: 'MERCHANT_ADMIN' }],
    ['setUserRole', { userId: adminId, role: 'MERCHANT_VIEWER' }],
    ['setUserDisabled', { userId: adminId, disabled: true }],
  ];
  for (const [procedure, input] of attempts) {
    expect(await procedureStatus(page, `console.settings.${procedure}`, input), procedure).toBe(403);
  }
  expect(await operatorConsole().settings.merchant.query({ merchantCode: merchant.code })).toEqual(before);
  expect(await operatorConsole().settings.users.query({ merchantCode: merchant.code })).toEqual(usersBefore);
});

test("a merchant admin gets 403 from platform procedures and not-found for another merchant's settings and users", async ({
  page,
}) => {
  const { admin } = await ownMerchantAdmin('OWN');
  const other = await ownMerchantAdmin('OTH');
  const otherUserId = await userId(other.merchant.code, other.admin.email);
  await signIn(page, admin.email, '/settings', admin.password);

  const platform: [string, object, 'query' | 'mutation'][] = [
    ['merchants', {}, 'query'],
    ['facilitators', {}, 'query'],
    ['createMerchant', { code: uniqueCode('NO'), name: 'No' }, 'mutation'],
    ['createFacilitator', { code: uniqueCode('NO'), name: 'No' }, 'mutation'],
    ['linkMerchant', { facilitatorCode: 'X', merchantCode: other.merchant.code }, 'mutation'],
    ['unlinkMerchant', { merchantCode: other.merchant.code }, 'mutation'],
    ['settleNow', { merchantCode: other.merchant.code }, 'mutation'],
  ];
  for (const [procedure, input, kind] of platform) {
    expect(await procedureStatus(page, `console.platform.${procedure}`, input, kind), procedure).toBe(403);
  }
  const named = { merchantCode: other.merchant.code };
  const settings: [string, object, 'query' | 'mutation'][] = [
    ['merchant', named, 'query'],
    ['users', named, 'query'],
    ['updateProfile', { ...named, name: 'Mío', supportEmail: null }, 'mutation'],
    ['updateMethods', { ...named, enabledMethods: ['CARD'] }, 'mutation'],
    ['addUser', { ...named, email: `${uniqueCode('x').toLowerCase()}@test.pe`, name: '', role: 'MERCHANT_ADMIN' }, 'mutation'],
    ['setUserRole', { userId: otherUserId, role: 'MERCHANT_VIEWER' }, 'mutation'],
    ['setUserDisabled', { userId: otherUserId, disabled: true }, 'mutation'],
  ];
  for (const [procedure, input, kind] of settings) {
    expect(await procedureStatus(page, `console.settings.${procedure}`, input, kind), procedure).toBe(404);
  }
  const untouched = await operatorConsole().settings.merchant.query(named);
  expect([untouched.name, untouched.enabledMethods.length]).toEqual([`Test ${other.merchant.code}`, 6]);
  expect((await operatorConsole().settings.users.query(named)).map((user) => [user.role, user.disabledAt])).toEqual([
    ['MERCHANT_ADMIN', null],
  ]);
  await page.goto('/platform');
  await expect(page.getByRole('heading', { name: 'Esta sección es del equipo de la plataforma' })).toBeVisible();
});

test('names a merchant controls render as text, never as markup', async ({ page, browser }) => {
  const payload = '<img src=x onerror="window.__xss=1">';
  const { merchant, admin } = await ownMerchantAdmin('XSS', payload);
  await operatorConsole().settings.updateProfile.mutate({ merchantCode: merchant.code, name: payload, supportEmail: null });
  await signIn(page, admin.email, '/settings', admin.password);
  await expect(page.getByLabel('Nombre del comercio')).toHaveValue(payload);
  await expect(userRow(page, admin.email).getByTestId('user-name')).toHaveText(payload);
  await expect(page.locator('main img')).toHaveCount(0);

  const staff = await otherSession(browser, 'admin@demo.pe', 'demo-password-1', `/platform/merchants/${merchant.code}`);
  await expect(staff.getByRole('heading', { level: 1 })).toHaveText(`Comercio ${payload}`);
  await expect(staff.getByTestId('user-name')).toHaveText(payload);
  await staff.goto(`/platform?q=${merchant.code}`);
  await expect(staff.getByTestId('merchant-row')).toContainText(payload);
  await expect(staff.locator('main img')).toHaveCount(0);
  for (const one of [page, staff]) {
    expect(await one.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  }
});

test('the settings and platform pages are in English after the language switch', async ({ page, browser }) => {
  await signIn(page, 'viewer@demo.pe', '/settings');
  await switchLanguage(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Settings');
  for (const heading of ['Profile', 'Payment methods', 'Pending payment expiry', 'People']) {
    await expect(page.getByRole('heading', { level: 2, name: heading })).toBeVisible();
  }
  await expect(page.getByTestId('read-only-note')).toHaveText(
    'Your role is read-only: you see the settings but cannot change them.',
  );
  await expect(page.getByLabel('QR (minutes)')).toBeVisible();
  await expect(page.getByRole('columnheader')).toHaveText(['Email', 'Name', 'Role', 'Created (Lima)', 'Status']);
  await expect(page.getByText(/Guardar|Perfil|Medios|Personas|Vencimiento/)).toHaveCount(0);

  const staff = await otherSession(browser, 'support@demo.pe', 'demo-password-1', '/platform');
  await switchLanguage(staff);
  await expect(staff.getByRole('heading', { level: 1 })).toHaveText('Platform');
  for (const heading of ['Merchants', 'Payment facilitators', 'Settlement']) {
    await expect(staff.getByRole('heading', { level: 2, name: heading })).toBeVisible();
  }
  await expect(staff.getByTestId('awaiting-settlement')).toContainText('waiting for the settlement cut-off');
  await staff.goto('/platform/merchants/DEMO001');
  await expect(staff.getByRole('link', { name: 'Back to Platform' })).toBeVisible();
  await expect(staff.getByRole('heading', { level: 2, name: 'Payment facilitator' })).toBeVisible();
  await expect(staff.getByText(/Comercio|Configuración|Liquidación|Volver/)).toHaveCount(0);
});
