import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { DEMO, demoCharge, procedureStatus, signIn, switchLanguage } from '../support/console';
import {
  charge,
  chargeBody,
  operationNumber,
  payOnPayerPage,
  requestRefund,
  tokenFor,
  type RefundFields,
} from '../support/api-client';
import { createMerchant, settleNow, storedOperation } from '../support/service';

// The refunds pages of the console: batch refunds, a refund's page, the list, per role and language.
// Settlements name their own transactions: other tests' authorizations of the demo merchant stay as they are.

const FIELDS: RefundFields = { canal: 'web', reason: 'talla equivocada', description: 'cambio por otra talla' };
const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';

/** A merchant of its own with one settled card payment refunded through the API. */
async function refundOfAnotherMerchant(request: APIRequestContext, fields = FIELDS) {
  const merchant = await createMerchant('RFD');
  const token = await tokenFor(request, merchant);
  const number = operationNumber('rfd');
  expect((await charge(request, token, chargeBody(merchant.code, number, 'CARD'))).status()).toBe(200);
  expect(await settleNow(merchant.code)).toBe(1);
  const refund = await requestRefund(request, token, merchant.code, number, '15000', fields);
  return { merchant, token, number, refund };
}

/** A settled payment of the demo merchant (settled alone). */
async function settledDemoCharge(request: APIRequestContext, method: 'CARD' | 'YAPE', prefix?: string) {
  const payment = await demoCharge(request, method, { prefix: prefix });
  expect(await settleNow(DEMO.code, [payment.transactionId])).toBe(1);
  return payment;
}

/** A settled payment of the demo merchant, refunded through the API. */
async function refundedDemoCharge(request: APIRequestContext, method: 'CARD' | 'YAPE', prefix: string) {
  const payment = await settledDemoCharge(request, method, prefix);
  const refund = await requestRefund(request, await tokenFor(request, DEMO), DEMO.code, payment.number, '15000', FIELDS);
  return { payment, refund };
}

const resultOf = (page: Page, transactionId: string) =>
  page.locator(`[data-testid="batch-result-item"][data-transaction-id="${transactionId}"]`);

async function refundsOf(number: string) {
  return (await storedOperation(DEMO.code, number)).refunds.map((refund) => ({
    state: refund.state,
    reason: (refund.additionalFields as RefundFields).reason,
  }));
}

test('a merchant admin files a batch: a refused batch says why for each item and files nothing; without the failing items every refund is registered', async ({
  page,
  request,
}, testInfo) => {
  test.slow();
  const prefix = `rb${Date.now().toString(36)}`;
  const cards = [
    await demoCharge(request, 'CARD', { prefix: `${prefix}-card` }),
    await demoCharge(request, 'CARD', { prefix: `${prefix}-card` }),
    await demoCharge(request, 'CARD', { prefix: `${prefix}-card` }),
  ];
  const yape = await demoCharge(request, 'YAPE', { prefix: `${prefix}-yape` });
  const refunded = await demoCharge(request, 'CARD', { prefix: `${prefix}-done` });
  const bank = await demoCharge(request, 'BANK_TRANSFER', { prefix: `${prefix}-bank` });
  await payOnPayerPage(request, bank.continueUrl!);
  const settled = [...cards, yape, refunded, bank];
  expect(
    await settleNow(
      DEMO.code,
      settled.map((payment) => payment.transactionId),
    ),
  ).toBe(6);
  const authorized = await demoCharge(request, 'CARD', { prefix: `${prefix}-auth` });
  await requestRefund(request, await tokenFor(request, DEMO), DEMO.code, refunded.number, '15000', FIELDS);

  await signIn(page, 'owner@demo.pe', '/refunds');
  await page.getByRole('link', { name: 'Nuevo reembolso' }).click();
  await expect(page.getByRole('heading', { name: 'Nuevo reembolso', level: 1 })).toBeVisible();
  await expect(page.getByRole('search')).toHaveAttribute('data-hydrated', 'true');
  await page.getByLabel('Buscar', { exact: true }).fill(prefix);
  await page.getByRole('button', { name: 'Aplicar filtros' }).click();
  // Only the settled payments of a method with refunds and no refund yet are offered.
  await expect(page.getByTestId('eligible-row')).toHaveCount(4);
  const offered = await page.getByTestId('eligible-row').locator('td:nth-child(2)').allTextContents();
  expect(offered.sort()).toEqual([...cards, yape].map((payment) => payment.number).sort());
  for (const payment of [...cards, yape]) await page.getByLabel(`Incluir ${payment.number}`).check();
  const pasted = [authorized.transactionId, refunded.transactionId, bank.transactionId, NO_SUCH_ID];
  await page.getByLabel('Ids de transacción', { exact: true }).fill(pasted.join('\n'));
  await page.getByRole('button', { name: 'Agregar ids' }).click();
  await expect(page.getByTestId('batch-item')).toHaveCount(8);
  await page
    .getByRole('group', { name: 'Motivo para todos los ítems' })
    .getByLabel('Motivo', { exact: true })
    .fill('pedido duplicado');
  const yapeItem = page.getByTestId('batch-item').filter({ hasText: yape.number });
  await yapeItem.getByLabel('Motivo propio para este ítem').check();
  await yapeItem.getByLabel('Motivo', { exact: true }).fill('no llegó a tiempo');
  await page.getByRole('button', { name: 'Solicitar 8 reembolsos' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('¿Solicitar 8 reembolsos?');
  await page.getByRole('button', { name: 'Sí, solicitar' }).click();

  const refused = page.getByRole('alert').filter({ hasText: 'No se registró ningún reembolso' });
  await expect(refused).toContainText('La solicitud es todo o nada: 4 de 8 ítems no se pueden reembolsar.');
  for (const payment of [...cards, yape]) {
    await expect(resultOf(page, payment.transactionId)).toContainText('Sin errores: no se registró porque otro ítem falló.');
  }
  await expect(resultOf(page, authorized.transactionId)).toContainText(
    'Aún no está liquidada: solo se reembolsan transacciones liquidadas.',
  );
  await expect(resultOf(page, refunded.transactionId)).toContainText('Ya tiene un reembolso.');
  await expect(resultOf(page, bank.transactionId)).toContainText('El medio BANK_TRANSFER no admite reembolsos.');
  await expect(resultOf(page, NO_SUCH_ID)).toContainText('No encontrada: no existe o no es de este comercio.');
  await page.screenshot({ path: testInfo.outputPath('refund-batch-refused.png'), fullPage: true });
  // All or nothing, as POST /refund: not one refund was filed.
  for (const payment of [...cards, yape, authorized, bank]) expect(await refundsOf(payment.number)).toEqual([]);
  expect(await refundsOf(refunded.number)).toHaveLength(1);

  await page.getByRole('button', { name: 'Quitar los ítems con error' }).click();
  await expect(page.getByTestId('batch-item')).toHaveCount(4);
  await page.getByRole('button', { name: 'Solicitar 4 reembolsos' }).click();
  await page.getByRole('button', { name: 'Sí, solicitar' }).click();
  const filed = page.getByRole('status').filter({ hasText: '4 reembolsos registrados' });
  await expect(filed.getByTestId('batch-result-item')).toHaveCount(4);
  for (const payment of [...cards, yape]) {
    await expect(resultOf(page, payment.transactionId)).toContainText('Solicitado');
    await expect(resultOf(page, payment.transactionId).getByRole('link', { name: /^Ver reembolso / })).toBeVisible();
  }
  await expect(page.getByText('No hay transacciones reembolsables que coincidan.')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('refund-batch-filed.png'), fullPage: true });
  for (const payment of cards) {
    expect(await refundsOf(payment.number)).toEqual([{ state: 'REGISTERED', reason: 'pedido duplicado' }]);
  }
  expect(await refundsOf(yape.number)).toEqual([{ state: 'REGISTERED', reason: 'no llegó a tiempo' }]);
  for (const payment of [authorized, bank]) expect(await refundsOf(payment.number)).toEqual([]);
  expect(await refundsOf(refunded.number)).toHaveLength(1);

  const stored = await storedOperation(DEMO.code, yape.number);
  await resultOf(page, yape.transactionId).getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/refunds/${stored.refunds[0]!.id}$`));
  await expect(page.getByTestId('additional-reason')).toHaveText('no llegó a tiempo');
});

test('a platform admin chooses the merchant first, then files for it', async ({ page, request }) => {
  const merchant = await createMerchant('RPA');
  const token = await tokenFor(request, merchant);
  const numbers = [operationNumber('rpa'), operationNumber('rpa')];
  for (const number of numbers) {
    expect((await charge(request, token, chargeBody(merchant.code, number, 'CARD'))).status()).toBe(200);
  }
  expect(await settleNow(merchant.code)).toBe(2);
  await signIn(page, 'admin@demo.pe', '/refunds/new');
  await expect(page.getByText('Elige primero el comercio para el que solicitas los reembolsos.')).toBeVisible();
  await expect(page.getByTestId('eligible-table')).toHaveCount(0);
  await expect(page.getByRole('search')).toHaveAttribute('data-hydrated', 'true');
  await page.getByLabel('Código de comercio').fill(merchant.code);
  await page.getByRole('button', { name: 'Aplicar filtros' }).click();
  await expect(page.getByTestId('acting-for')).toHaveText(`Comercio: Test ${merchant.code} (${merchant.code})`);
  await expect(page.getByTestId('eligible-row')).toHaveCount(2);
  await page.getByRole('button', { name: 'Agregar todas las de la lista' }).click();
  await page
    .getByRole('group', { name: 'Motivo para todos los ítems' })
    .getByLabel('Motivo', { exact: true })
    .fill('cierre de tienda');
  await page.getByRole('button', { name: 'Solicitar 2 reembolsos' }).click();
  await page.getByRole('button', { name: 'Sí, solicitar' }).click();
  await expect(page.getByRole('status').filter({ hasText: '2 reembolsos registrados' })).toBeVisible();
  for (const number of numbers) {
    const stored = await storedOperation(merchant.code, number);
    expect(stored.refunds.map((refund) => refund.state)).toEqual(['REGISTERED']);
  }
});

test("a refund's page shows its lifecycle, transaction and callbacks; another merchant's refund is not found, by page or procedure", async ({
  page,
  request,
}, testInfo) => {
  test.slow(); // many page loads: more than a minute on a loaded machine
  const { payment: yape, refund } = await refundedDemoCharge(request, 'YAPE', 'rdet');
  const other = await refundOfAnotherMerchant(request);

  await signIn(page, 'owner@demo.pe', '/refunds');
  await expect(page.getByRole('search')).toHaveAttribute('data-hydrated', 'true');
  await page.getByLabel('N.º de operación').fill(yape.number);
  await page.getByRole('button', { name: 'Aplicar filtros' }).click();
  await expect(page.getByTestId('refund-row')).toHaveCount(1);
  await expect(page.getByTestId('refund-count')).toHaveText('1 reembolso');
  await page.screenshot({ path: testInfo.outputPath('refunds-list.png'), fullPage: true });
  await page.getByRole('link', { name: `Ver el reembolso ${refund.refund_id}` }).click();

  await expect(page).toHaveURL(new RegExp(`/refunds/${refund.refund_id}$`));
  await expect(page.getByRole('heading', { name: 'Reembolso', level: 1 })).toBeVisible();
  await expect(page.getByTestId('refund-id')).toHaveText(refund.refund_id);
  await expect(page.getByTestId('refund-reason')).toHaveText('Solicitud de reembolso registrada');
  const timeline = page.getByRole('list', { name: 'Ciclo de vida del reembolso' }).getByRole('listitem');
  await expect(timeline).toHaveCount(refund.lifecycle.length);
  await expect(timeline.first()).toContainText('Solicitado');
  // The API's name beside the state, for matching the merchant's logs.
  await expect(timeline.first().getByTestId('api-value')).toHaveText('REGISTERED');
  await expect(timeline.first().locator('time')).toHaveAttribute('title', `UTC ${refund.lifecycle[0]!.date.utc_time}Z`);
  await expect(timeline.first().locator('time')).toHaveText(/^\d{2}\/\d{2}\/\d{4}/);
  await expect(page.getByTestId('additional-reason')).toHaveText(FIELDS.reason);
  await expect(page.getByTestId('additional-description')).toHaveText(FIELDS.description);
  const transaction = page.getByRole('region', { name: 'Transacción reembolsada' });
  await expect(transaction.getByRole('link', { name: yape.number })).toHaveAttribute('href', `/operations/${yape.transactionId}`);
  await expect(transaction).toContainText('Yape');
  await expect(transaction).toContainText('+51 ••••••321');
  await expect(transaction).toContainText('Liquidado');
  await expect(transaction).toContainText('S/ 150.00');
  await expect(page.getByText('Comercio', { exact: true })).toHaveCount(0);
  await expect(page.getByTestId('callback-event').first()).toContainText('refund.registered');
  await page.screenshot({ path: testInfo.outputPath('refund-detail.png'), fullPage: true });

  // The operation's page links its refund here.
  await page.goto(`/operations/${yape.transactionId}`);
  await page.getByRole('link', { name: refund.refund_id }).click();
  await expect(page).toHaveURL(new RegExp(`/refunds/${refund.refund_id}$`));

  for (const refundId of [other.refund.refund_id, 'no-es-un-id']) {
    await page.goto(`/refunds/${refundId}`);
    await expect(page.getByRole('heading', { name: 'No encontramos este reembolso' })).toBeVisible();
    await expect(page.getByText(other.number)).toHaveCount(0);
    expect(await procedureStatus(page, 'console.refundDetail', { refundId }, 'query')).toBe(404);
  }
  expect(await procedureStatus(page, 'console.refundDetail', { refundId: refund.refund_id }, 'query')).toBe(200);
});

test('support reads any merchant’s refund but cannot file refunds: no form, and the procedure answers 403', async ({
  page,
  request,
}) => {
  const other = await refundOfAnotherMerchant(request);
  const number = operationNumber('rsup');
  expect((await charge(request, other.token, chargeBody(other.merchant.code, number, 'CARD'))).status()).toBe(200);
  expect(await settleNow(other.merchant.code)).toBe(1);
  const eligible = (await storedOperation(other.merchant.code, number)).transactions[0]!.id;

  await signIn(page, 'support@demo.pe', '/refunds');
  await expect(page.getByRole('link', { name: 'Nuevo reembolso' })).toHaveCount(0);
  await page.goto(`/refunds/${other.refund.refund_id}`);
  await expect(page.getByTestId('refund-id')).toHaveText(other.refund.refund_id);
  await expect(page.getByRole('region', { name: 'Resumen' })).toContainText(
    `Test ${other.merchant.code} (${other.merchant.code})`,
  );
  await page.goto('/refunds/new');
  await expect(page.getByTestId('read-only')).toContainText('Tu rol es de solo lectura');
  await expect(page.getByRole('button', { name: /Solicitar/ })).toHaveCount(0);
  await expect(page.getByRole('textbox')).toHaveCount(0);
  const batch = {
    merchantCode: other.merchant.code,
    items: [{ transactionId: eligible, additional_fields: FIELDS }],
  };
  expect(await procedureStatus(page, 'console.refundBatch', batch, 'mutation')).toBe(403);
  expect(await procedureStatus(page, 'console.refund', { transactionId: eligible, additional_fields: FIELDS }, 'mutation')).toBe(
    403,
  );
  expect((await storedOperation(other.merchant.code, number)).refunds).toEqual([]);
});

test('a viewer cannot file refunds: the page says why, and the procedures answer 403', async ({ page, request }) => {
  const card = await settledDemoCharge(request, 'CARD', 'rview');
  await signIn(page, 'viewer@demo.pe', '/refunds/new');
  await expect(page.getByTestId('read-only')).toContainText('Tu rol es de solo lectura');
  await expect(page.getByTestId('eligible-table')).toHaveCount(0);
  const items = [{ transactionId: card.transactionId, additional_fields: FIELDS }];
  expect(await procedureStatus(page, 'console.refundBatch', { items }, 'mutation')).toBe(403);
  expect(await procedureStatus(page, 'console.refund', items[0], 'mutation')).toBe(403);
  expect(await refundsOf(card.number)).toEqual([]);
  await page.goto('/refunds');
  await expect(page.getByRole('link', { name: 'Nuevo reembolso' })).toHaveCount(0);
});

test('reasons and descriptions with markup show as text on the list and the refund page', async ({ page, request }) => {
  const markup = {
    canal: 'web',
    reason: '<img src=x onerror="window.__xss=1">',
    description: '<script>window.__xss=1</script>',
  };
  const other = await refundOfAnotherMerchant(request, markup);
  await signIn(page, 'support@demo.pe', `/refunds?merchant_code=${other.merchant.code}`);
  const row = page.getByTestId('refund-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(markup.reason);
  await expect(page.locator('main img')).toHaveCount(0);
  await row.getByRole('link', { name: `Ver el reembolso ${other.refund.refund_id}` }).click();
  await expect(page.getByTestId('additional-reason')).toHaveText(markup.reason);
  await expect(page.getByTestId('additional-description')).toHaveText(markup.description);
  await expect(page.locator('main img')).toHaveCount(0);
  await expect(page.locator('main script')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
});

test('after the language switch the refunds pages are in English', async ({ page, request }) => {
  const { refund } = await refundedDemoCharge(request, 'CARD', 'ren');
  await signIn(page, 'owner@demo.pe', '/refunds');
  await switchLanguage(page);
  await expect(page.getByRole('heading', { name: 'Refunds', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'New refund' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Registered (Lima)' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Apply filters' })).toBeVisible();
  await page.goto(`/refunds/${refund.refund_id}`);
  await expect(page.getByRole('heading', { name: 'Refund', level: 1 })).toBeVisible();
  for (const name of [
    'Summary',
    'Lifecycle (Lima time; UTC on hover)',
    'Refunded transaction',
    'Notifications to the merchant',
  ]) {
    await expect(page.getByRole('heading', { name, level: 2 })).toBeVisible();
  }
  await expect(page.getByText('Refund amount')).toBeVisible();
  await page.goto('/refunds/new');
  await expect(page.getByRole('heading', { name: 'New refund', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Refundable transactions' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Reason for every item' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Request 0 refunds' })).toBeDisabled();
  await expect(page.locator('main')).not.toContainText(/Reembolso|Motivo|Buscar|Solicitar/);
  await page.goto(`/refunds/${NO_SUCH_ID}`);
  await expect(page.getByRole('heading', { name: 'We could not find this refund' })).toBeVisible();
});

test('on a 375 px phone the refunds pages fit the screen; the list is cards that need no sideways scrolling', async ({
  page,
  request,
}, testInfo) => {
  const { refund } = await refundedDemoCharge(request, 'CARD', 'rphone');
  await page.setViewportSize({ width: 375, height: 800 });
  await signIn(page, 'owner@demo.pe', '/refunds');
  const pageWidth = () => page.evaluate(() => document.documentElement.scrollWidth);
  await expect(page.getByTestId('refund-row').first()).toBeVisible();
  expect(await pageWidth()).toBeLessThanOrEqual(375);
  const table = page.getByTestId('refunds-table');
  expect(await table.evaluate((box) => box.scrollWidth <= box.clientWidth)).toBe(true);
  await page.screenshot({ path: testInfo.outputPath('refunds-list-375.png'), fullPage: true });
  for (const path of [`/refunds/${refund.refund_id}`, '/refunds/new']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await pageWidth()).toBeLessThanOrEqual(375);
  }
});
