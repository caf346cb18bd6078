import { expect, test } from '@playwright/test';
import { DEMO, demoCharge, signIn } from '../support/console';
import { charge, chargeBody, operationNumber, requestRefund, tokenFor } from '../support/api-client';
import { createConsoleUser, createMerchant, ORIGIN, settleNow } from '../support/service';

// The console per role, in Chromium, against the API suite's service and its demo users.

test('pages need a signed-in user, and a wrong password is refused', async ({ page }, testInfo) => {
  await page.goto('/operations/00000000-0000-4000-8000-000000000000');
  await expect(page).toHaveURL(/\/login\?callbackUrl=/);
  await expect(page.getByRole('button', { name: 'Ingresar', exact: true })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('login.png'), fullPage: true });
  await page.getByLabel('Correo', { exact: true }).fill('owner@demo.pe');
  await page.getByLabel('Contraseña', { exact: true }).fill('not-the-password');
  await page.getByRole('button', { name: 'Ingresar', exact: true }).click();
  await expect(page.getByText('Correo o contraseña incorrectos')).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
});

test('a merchant admin finds an operation, sees its timeline, and cancels it after confirming', async ({
  page,
  request,
}, testInfo) => {
  const qr = await demoCharge(request, 'QR');
  await signIn(page, 'owner@demo.pe');
  await expect(page.getByRole('search')).toHaveAttribute('data-hydrated', 'true');
  await page.evaluate(() => ((window as unknown as { marker: string }).marker = 'no full reload'));
  await page.getByLabel('Buscar').fill(qr.number);
  await page.getByRole('button', { name: 'Aplicar filtros' }).click();
  await expect(page).toHaveURL(new RegExp(`search=${qr.number}`));
  await expect(page.getByTestId('operation-row')).toHaveCount(1);
  expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe('no full reload');
  await page.screenshot({ path: testInfo.outputPath('operations.png'), fullPage: true });
  await page.getByRole('link', { name: qr.number }).click();
  await expect(page.getByRole('heading', { name: qr.number })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Historial' }).getByRole('listitem')).toHaveCount(2);
  await page.getByRole('button', { name: 'Cancelar operación' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('dejará de funcionar');
  await page.getByRole('button', { name: 'Sí, cancelar' }).click();
  await expect(page.getByRole('list', { name: 'Historial' }).getByRole('listitem')).toHaveCount(3);
  await expect(page.getByText('No se puede cancelar ni extornar: ya está en estado «Cancelado».')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('operation-detail.png'), fullPage: true });
});

test('a merchant admin reverses an authorized card payment', async ({ page, request }) => {
  const card = await demoCharge(request, 'CARD');
  await signIn(page, 'owner@demo.pe');
  await page.goto(`/operations/${card.transactionId}`);
  await page.getByRole('button', { name: 'Extornar operación' }).click();
  await page.getByRole('button', { name: 'Sí, extornar' }).click();
  await expect(page.getByRole('list', { name: 'Historial' }).getByRole('listitem').last()).toContainText('Extornado');
});

test('a viewer reads but cannot act, not even by calling the procedure', async ({ page, request }) => {
  const qr = await demoCharge(request, 'QR');
  await signIn(page, 'viewer@demo.pe');
  await page.goto(`/operations/${qr.transactionId}`);
  await expect(page.getByText('Tu rol es de solo lectura.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancelar operación' })).toHaveCount(0);
  const status = await page.evaluate(async (transactionId) => {
    const response = await fetch('/api/trpc/console.cancel', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ transactionId }),
    });
    return response.status;
  }, qr.transactionId);
  expect(status).toBe(403);
  await page.reload();
  await expect(page.getByRole('list', { name: 'Historial' }).getByRole('listitem')).toHaveCount(2);
});

test("merchant users cannot reach another merchant's operation; support sees every merchant", async ({ page, request }) => {
  const other = await createMerchant('CONS');
  const token = await tokenFor(request, other);
  const number = operationNumber('other');
  const response = await charge(request, token, chargeBody(other.code, number, 'CARD'));
  const transactionId = ((await response.json()) as { transaction: { transaction_id: string } }).transaction.transaction_id;
  await signIn(page, 'owner@demo.pe');
  // Another merchant's operation does not exist for this user: a real 404.
  expect((await page.goto(`/operations/${transactionId}`))?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'No encontramos esta operación' })).toBeVisible();
  await expect(page.getByText(number)).toHaveCount(0);
  await page.getByRole('button', { name: 'Salir' }).click();
  await expect(page).toHaveURL(/\/login/);
  await signIn(page, 'support@demo.pe');
  await page.goto(`/operations?search=${number}`);
  await expect(page.getByTestId('operation-row')).toHaveCount(1);
  await expect(page.getByTestId('operation-row')).toContainText(other.code);
});

test('a session cookie does not work from another origin', async ({ page, request }) => {
  await signIn(page, 'owner@demo.pe');
  const cookies = await page.context().cookies(ORIGIN);
  const session = cookies.find((cookie) => cookie.name.includes('session-token'));
  expect(session).toBeDefined();
  const forged = await request.post(`${ORIGIN}/api/trpc/console.cancel`, {
    headers: { cookie: `${session!.name}=${session!.value}`, origin: 'https://evil.example', 'content-type': 'application/json' },
    data: { transactionId: '00000000-0000-4000-8000-000000000000' },
  });
  expect(forged.status()).toBe(401);
});

test('support searches refunds across merchants; a merchant user sees only its own', async ({ page, request }) => {
  const other = await createMerchant('REFC');
  const token = await tokenFor(request, other);
  const number = operationNumber('refc');
  expect((await charge(request, token, chargeBody(other.code, number, 'CARD'))).status()).toBe(200);
  expect(await settleNow(other.code)).toBe(1);
  await requestRefund(request, token, other.code, number, '15000', { canal: 'web', reason: 'talla equivocada', description: '' });
  await signIn(page, 'support@demo.pe');
  await page.goto('/refunds');
  await page.getByLabel('Comercio').fill(other.code);
  await page.getByLabel('N.º de operación').fill(number);
  await page.getByRole('button', { name: 'Aplicar filtros' }).click();
  await expect(page.getByTestId('refund-row')).toHaveCount(1);
  await expect(page.getByTestId('refund-row')).toContainText('talla equivocada');
  await expect(page.getByTestId('refund-count')).toHaveText('1 reembolso');
  await page.getByRole('button', { name: 'Salir' }).click();
  await expect(page).toHaveURL(/\/login/);
  await signIn(page, 'owner@demo.pe');
  await page.goto(`/refunds?merchant_code=${other.code}&merchant_operation_number=${number}`);
  await expect(page.getByText('No hay reembolsos que coincidan.')).toBeVisible();
});

test('a merchant admin creates a credential (secret shown once) that works, then revokes it', async ({
  page,
  request,
}, testInfo) => {
  await signIn(page, 'owner@demo.pe');
  await page.goto('/developers');
  await page.getByLabel('Nombre').fill('tienda online');
  await page.getByRole('checkbox', { name: 'delete:charges' }).uncheck();
  await page.getByRole('button', { name: 'Crear credencial' }).click();
  const secret = (await page.getByTestId('client-secret').textContent())!;
  const clientId = (await page.getByTestId('issued-credential').locator('code').first().textContent())!;
  await page.screenshot({ path: testInfo.outputPath('developers.png'), fullPage: true });
  const merchant = { code: DEMO.code, clientId, clientSecret: secret };
  expect((await tokenFor(request, merchant, 'create:token post:charges get:charges')).split('.')).toHaveLength(3);
  await page.getByRole('button', { name: 'Listo' }).click();
  await expect(page.getByText(secret)).toHaveCount(0);
  const row = page.getByTestId('credential-row').filter({ hasText: clientId });
  await expect(row).toContainText('create:token post:charges get:charges');
  await row.getByRole('button', { name: 'Revocar' }).click();
  await row.getByRole('button', { name: `Revocar ${clientId}` }).click();
  await expect(row).toContainText('Revocada');
  await expect(tokenFor(request, merchant, 'create:token')).rejects.toThrow(/token: 401/);
});

test('a viewer sees credentials but cannot create or revoke them', async ({ page }) => {
  await signIn(page, 'viewer@demo.pe');
  await page.goto('/developers');
  await expect(page.getByTestId('credential-row').filter({ hasText: DEMO.clientId })).toContainText('Activa');
  await expect(page.getByRole('button', { name: 'Crear credencial' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Revocar' })).toHaveCount(0);
});

test('the API reference renders the OpenAPI document with no outside network', async ({ page }, testInfo) => {
  const outside: string[] = [];
  page.on('request', (sent) => {
    if (!sent.url().startsWith(ORIGIN)) outside.push(sent.url());
  });
  await page.goto('/docs');
  await expect(page.getByText('Ecommerce payment orchestration API')).toBeVisible();
  await expect(
    page.locator('.opblock-summary-path', { hasText: '/charges/{merchant_code}/{merchant_operation_number}/{transaction_id}' }),
  ).toBeVisible();
  expect(outside).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('docs.png'), fullPage: true });
});

test('the overview says what each figure counts, and a pending-only method has no approval rate', async ({
  page,
  request,
}, testInfo) => {
  // A merchant of its own: one approved card payment, one declined, two pending (a bank transfer, a QR).
  const merchant = await createMerchant('FIG');
  const admin = await createConsoleUser('MERCHANT_ADMIN', merchant.code);
  const token = await tokenFor(request, merchant);
  const pay = async (method: 'CARD' | 'BANK_TRANSFER' | 'QR', amount: string, pan?: string) => {
    const body = chargeBody(merchant.code, operationNumber('fig'), method, { amount, ...(pan ? { details: { pan } } : {}) });
    const answer = await charge(request, token, body);
    expect(answer.status()).toBe(200);
    return ((await answer.json()) as { transaction: { state: string } }).transaction.state;
  };
  expect(await pay('CARD', '10500')).toBe('AUTORIZADO');
  expect(await pay('CARD', '7000', '4000000000000002')).toBe('DENEGADO');
  expect(await pay('BANK_TRANSFER', '2000')).toBe('PENDIENTE');
  expect(await pay('QR', '3000')).toBe('PENDIENTE');

  await signIn(page, admin.email, '/', admin.password);
  await expect(page.getByRole('heading', { name: 'Resumen' })).toBeVisible();
  // The money and its count are of one set (approved operations, what they captured), beside the count of all.
  const today = page.getByTestId('window-today');
  await expect(today.getByText('Capturado de pagos aprobados')).toBeVisible();
  await expect(today.getByTestId('approved-volume')).toHaveText('S/ 105.00');
  await expect(today.getByTestId('approved-of')).toHaveText('en 1 operación aprobada, de 4 operaciones en total');
  // Approved of decided: the two pending ones are apart, not declined.
  await expect(page.getByTestId('approval-rate')).toHaveText('50.0 %');
  await expect(page.getByTestId('approval-basis')).toHaveText('De 2 pagos aprobados o denegados; los pendientes no cuentan.');
  await expect(page.getByTestId('pending')).toHaveText('2 pagos pendientes ahora.');
  await expect(page.getByTestId('refunded')).toHaveText('S/ 0.00');
  await expect(page.getByTestId('refunds-in-process')).toHaveText('En proceso: ningún reembolso por S/ 0.00.');
  // Recharts draws after hydration: wait for the first bar rather than count at once.
  await expect(page.locator('figure').first().locator('.recharts-bar-rectangle').first()).toBeVisible();
  await expect(page.locator('figure').nth(1).locator('.recharts-line-curve')).toHaveCount(1);
  await page.screenshot({ path: testInfo.outputPath('overview.png'), fullPage: true });

  // The processors' health: a method with only pending payments shows "—", its pending apart.
  await page.goto('/processors');
  const rowOf = (method: string) => page.getByTestId('health').locator('tbody tr').filter({ hasText: method });
  for (const method of ['BANK_TRANSFER', 'QR']) {
    await expect(rowOf(method).locator('td').nth(4)).toHaveText('—');
    await expect(rowOf(method).locator('td').nth(5)).toHaveText('—');
    await expect(rowOf(method).locator('td').nth(6)).toHaveText('1');
  }
  await expect(
    page.getByText('Las tasas de aprobación cuentan solo los pagos con respuesta (aprobados o denegados)'),
  ).toBeVisible();
});
