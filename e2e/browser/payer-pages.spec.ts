import type { APIRequestContext, Page } from '@playwright/test';
import { ASYNC_ORIGIN, ASYNC_PORT, storedOperation } from '../support/service';
import {
  collectErrors,
  countdownSeconds,
  createPayment,
  expect,
  expectPaid,
  merchantDetails,
  queryTransaction,
  stored,
  test,
  type MerchantSite,
  type Payment,
  type PayerMethod,
} from './browser-helpers';

// The hosted payer pages (docs/DESIGN.md 6 and 8) in a real browser, against the asynchronous
// service (worker every 100 ms, settlement 3 s after authorization).

/** The exact query the payer's browser brings back to the merchant (docs/DESIGN.md 8). */
function returnQuery(payment: Payment, state: string): string {
  return `?merchant_operation_number=${payment.number}&transaction_id=${payment.transaction.transaction_id}&state=${state}`;
}

/** Waits until the browser is on the merchant site's return page; returns that URL. */
async function waitForMerchant(page: Page, site: MerchantSite, path = '/return'): Promise<URL> {
  await page.waitForURL((url) => url.origin === site.origin && url.pathname === path, { timeout: 15_000 });
  await expect(page.getByRole('heading', { name: 'Tienda de prueba: regreso' })).toBeVisible();
  return new URL(page.url());
}

/** EXPIRADO through the API: REGISTRADO, PENDIENTE, EXPIRADO, the last not before expiration_date. */
async function expectExpired(request: APIRequestContext, payment: Payment) {
  const expiresAt = payment.transaction.expiration_date!.unix_time * 1000;
  // The worker (every 100 ms) has moved it by now; poll a bounded while all the same.
  await expect.poll(async () => (await queryTransaction(request, payment)).state, { timeout: 5_000 }).toBe('EXPIRADO');
  const transaction = await queryTransaction(request, payment);
  expect(transaction.lifecycle.map((entry) => entry.state)).toEqual(['REGISTRADO', 'PENDIENTE', 'EXPIRADO']);
  expect(Date.parse(transaction.lifecycle[2]!.date.utc_time)).toBeGreaterThanOrEqual(expiresAt);
}

test.describe('bank transfer', () => {
  test('shows merchant, amount, method and a live countdown; paying returns to the merchant AUTORIZADO', async ({
    page,
    request,
    site,
  }, testInfo) => {
    const payment = await createPayment(request, 'BANK_TRANSFER', { details: merchantDetails(site, 'BANK_TRANSFER') });
    await page.goto(payment.payerUrl!);

    await expect(page).toHaveURL(payment.payerUrl!);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Completa tu pago');
    await expect(page.getByTestId('merchant')).toHaveText(payment.merchantName);
    await expect(page.getByTestId('amount')).toHaveText('S/ 150.00');
    await expect(page.getByText('Transferencia bancaria', { exact: true })).toBeVisible();
    await expect(page.getByText(payment.number, { exact: true })).toBeVisible();

    // The countdown: 'Vence en mm:ss', consistent with expiration_date, and live.
    const countdown = page.getByTestId('countdown');
    await expect(countdown).toHaveText(/^Vence en \d{2}:\d{2}$/);
    const first = countdownSeconds((await countdown.textContent()) ?? '', 'Vence en');
    const left = payment.transaction.expiration_date!.unix_time - Date.now() / 1000;
    expect(Math.abs(first - left), `countdown ${first} s, expiration_date in ${left} s`).toBeLessThanOrEqual(2);
    expect(first).toBeGreaterThan(29 * 60);
    expect(first).toBeLessThanOrEqual(30 * 60);
    await page.waitForTimeout(2_200);
    const second = countdownSeconds((await countdown.textContent()) ?? '', 'Vence en');
    expect(second).toBeLessThan(first);
    expect(first - second).toBeGreaterThanOrEqual(1);
    expect(first - second).toBeLessThanOrEqual(4);

    const pay = page.getByRole('button', { name: 'Confirmar transferencia', exact: true });
    await expect(pay).toBeEnabled();
    await expect(page.getByRole('button', { name: 'Cancelar y volver', exact: true })).toBeEnabled();
    await page.screenshot({ path: testInfo.outputPath('bank-transfer-page.png'), fullPage: true });

    await pay.click();
    const back = await waitForMerchant(page, site);
    expect(back.search).toBe(returnQuery(payment, 'AUTORIZADO'));
    expect(site.visits.map((visit) => visit.url.search)).toEqual([returnQuery(payment, 'AUTORIZADO')]);

    const transaction = await queryTransaction(request, payment);
    expectPaid(
      transaction.lifecycle.map((entry) => entry.state),
      transaction.state,
    );
    expect(transaction.processor_response?.result_message.code).toBe('00');
    expect(transaction.continue_url).toBeUndefined();
    const row = await stored(payment);
    expectPaid(
      row.lifecycle.map((entry) => entry.state),
      row.state,
    );
  });

  test('abandoning returns to the merchant CANCELADO; the link then says the payment was cancelled', async ({
    page,
    request,
    site,
  }, testInfo) => {
    const payment = await createPayment(request, 'BANK_TRANSFER', { details: merchantDetails(site, 'BANK_TRANSFER') });
    await page.goto(payment.payerUrl!);
    await page.getByRole('button', { name: 'Cancelar y volver', exact: true }).click();
    const back = await waitForMerchant(page, site);
    expect(back.search).toBe(returnQuery(payment, 'CANCELADO'));

    const transaction = await queryTransaction(request, payment);
    expect(transaction.state).toBe('CANCELADO');
    expect(transaction.lifecycle.map((entry) => entry.state)).toEqual(['REGISTRADO', 'PENDIENTE', 'CANCELADO']);
    expect(transaction.continue_url).toBeUndefined();

    await page.goto(payment.payerUrl!);
    await expect(page.getByRole('heading', { name: 'Pago cancelado', exact: true })).toBeVisible();
    await expect(page.getByText('No se realizó ningún cargo.', { exact: true })).toBeVisible();
    await expect(page.getByTestId('outcome')).toHaveAttribute('data-state', 'CANCELADO');
    await expect(page.getByTestId('amount')).toHaveText('S/ 150.00');
    await expect(page.getByRole('button', { name: 'Confirmar transferencia' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Cancelar y volver' })).toHaveCount(0);
    await expect(page.getByTestId('countdown')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Volver al comercio', exact: true })).toHaveAttribute(
      'href',
      site.url(`/return${returnQuery(payment, 'CANCELADO')}`),
    );
    await page.screenshot({ path: testInfo.outputPath('outcome-cancelled.png'), fullPage: true });

    // Still cancelled: a look at the page changes nothing.
    expect((await queryTransaction(request, payment)).lifecycle.map((entry) => entry.state)).toEqual([
      'REGISTRADO',
      'PENDIENTE',
      'CANCELADO',
    ]);
  });

  test('an expired link: the countdown reaches zero, the page reloads to "Pago vencido", the transaction is EXPIRADO', async ({
    page,
    request,
    site,
  }, testInfo) => {
    const payment = await createPayment(request, 'BANK_TRANSFER', {
      details: merchantDetails(site, 'BANK_TRANSFER'),
      expirySeconds: 3,
    });
    const expiresAt = payment.transaction.expiration_date!.unix_time * 1000;
    const created = Date.parse(payment.transaction.lifecycle[0]!.date.utc_time);
    expect(expiresAt - created).toBeGreaterThanOrEqual(2_000);
    expect(expiresAt - created).toBeLessThanOrEqual(3_000);

    await page.goto(payment.payerUrl!);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Completa tu pago');
    await expect(page.getByTestId('countdown')).toHaveText(/^Vence en 00:0[0-3]$/);
    await expect(page.getByRole('button', { name: 'Confirmar transferencia' })).toBeVisible();

    await expect(page.getByTestId('countdown')).toHaveText('Este pago venció', { timeout: 8_000 });
    await expect(page.getByRole('heading', { name: 'Pago vencido', exact: true })).toBeVisible({ timeout: 8_000 });
    await expect(page.getByText('El plazo para pagar terminó. No se realizó ningún cargo.', { exact: true })).toBeVisible();
    await expect(page.getByTestId('outcome')).toHaveAttribute('data-state', 'EXPIRADO');
    await expect(page.getByRole('button', { name: 'Confirmar transferencia' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Cancelar y volver' })).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath('outcome-expired.png'), fullPage: true });

    await expectExpired(request, payment);
    expect(site.visits).toEqual([]);
  });

  test('an expired link opened again, and a pay click on a page loaded before the expiry, both end on "Pago vencido"', async ({
    page,
    request,
    site,
  }) => {
    const payment = await createPayment(request, 'BANK_TRANSFER', {
      details: merchantDetails(site, 'BANK_TRANSFER'),
      expirySeconds: 3,
    });
    const expiresAt = payment.transaction.expiration_date!.unix_time * 1000;
    // A page loaded before the expiry whose clock stands still (a phone put to sleep): it does not reload by itself.
    const stale = await page.context().newPage();
    await stale.clock.setFixedTime(new Date());
    await stale.goto(payment.payerUrl!);
    await expect(stale.getByRole('button', { name: 'Confirmar transferencia', exact: true })).toBeEnabled();

    // The worker moves it to EXPIRADO (every 100 ms) once expiration_date has passed.
    await expect.poll(async () => (await queryTransaction(request, payment)).state, { timeout: 10_000 }).toBe('EXPIRADO');
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt);

    await page.goto(payment.payerUrl!);
    await expect(page.getByRole('heading', { name: 'Pago vencido', exact: true })).toBeVisible();
    await expect(page.getByTestId('outcome')).toHaveAttribute('data-state', 'EXPIRADO');
    await expect(page.getByRole('button', { name: 'Confirmar transferencia' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Volver al comercio', exact: true })).toHaveAttribute(
      'href',
      site.url(`/return${returnQuery(payment, 'EXPIRADO')}`),
    );

    // Paying on the stale page: the server refuses, the payer is sent back to the page, which says it expired.
    await stale.getByRole('button', { name: 'Confirmar transferencia', exact: true }).click();
    await stale.waitForURL(`${payment.payerUrl!}?lang=es`, { timeout: 15_000 });
    await expect(stale.getByRole('heading', { name: 'Pago vencido', exact: true })).toBeVisible();
    await expect(stale.getByRole('button', { name: 'Confirmar transferencia' })).toHaveCount(0);
    await expectExpired(request, payment);
    expect(site.visits).toEqual([]);
  });
});

test('CUOTEALO: choosing 6 instalments authorizes with additional_fields.installments "6"', async ({ page, request, site }) => {
  const payment = await createPayment(request, 'CUOTEALO', { details: merchantDetails(site, 'CUOTEALO', '/return?shop=1') });
  await page.goto(payment.payerUrl!);
  await expect(page.getByText('Cuotéalo (pago en cuotas)', { exact: true })).toBeVisible();
  await expect(page.getByTestId('amount')).toHaveText('S/ 150.00');
  await expect(page.getByTestId('countdown')).toHaveText(/^Vence en (59:\d{2}|1:00:00)$/);
  const select = page.getByLabel('Número de cuotas');
  await expect(select).toHaveValue('3');
  await expect(select.locator('option')).toHaveText(['3', '6', '9', '12']);
  await select.selectOption('6');
  await expect(select).toHaveValue('6');
  await page.getByRole('button', { name: 'Aprobar crédito en cuotas', exact: true }).click();

  const back = await waitForMerchant(page, site);
  // The merchant's own query parameter is kept; the outcome is added.
  expect([...back.searchParams.entries()]).toEqual([
    ['shop', '1'],
    ['merchant_operation_number', payment.number],
    ['transaction_id', payment.transaction.transaction_id],
    ['state', 'AUTORIZADO'],
  ]);

  const transaction = await queryTransaction(request, payment);
  expectPaid(
    transaction.lifecycle.map((entry) => entry.state),
    transaction.state,
  );
  expect(transaction.additional_fields).toEqual({ processor: 'sandbox-cuotealo', attempt: 1, installments: '6' });
  expect(transaction.processor_response?.result_message.code).toBe('00');
  expect(transaction.processor_response?.credit_status).toBe('APPROVED');
});

test('PAGOEFECTIVO: the CIP is shown large and copied; the sandbox control records the cash payment', async ({
  page,
  request,
  site,
}, testInfo) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ASYNC_ORIGIN });
  // No redirect_url: after the payment the payer stays on the page, which shows the outcome.
  const payment = await createPayment(request, 'PAGOEFECTIVO', {
    details: { callback_url: site.url('/callbacks'), redirect_url: undefined },
  });
  const cip = String(payment.transaction.processor_response?.cip);
  expect(cip).toMatch(/^[1-9]\d{8}$/);
  expect(payment.transaction.processor_response?.result_message.code).toBe('100');

  await page.goto(payment.payerUrl!);
  await expect(page.getByTestId('merchant')).toHaveText(payment.merchantName);
  await expect(page.getByTestId('amount')).toHaveText('S/ 150.00');
  await expect(page.getByText('PagoEfectivo', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Código de pago (CIP)', exact: true })).toBeVisible();
  const shown = page.getByTestId('cip');
  await expect(shown).toHaveText(cip);
  const fontSize = await shown.evaluate((element) => parseFloat(getComputedStyle(element).fontSize));
  expect(fontSize, 'the CIP is shown large').toBeGreaterThanOrEqual(30);
  // Default expiry 24 h: the countdown with hours.
  await expect(page.getByTestId('countdown')).toHaveText(/^Vence en (23:59:\d{2}|24:00:00)$/);
  await expect(page.getByText(/elige PagoEfectivo e ingresa el código CIP/)).toBeVisible();
  await expect(page.getByText('Sandbox: simula la acción del pagador', { exact: true })).toBeVisible();

  const copy = page.getByRole('button', { name: 'Copiar', exact: true });
  await copy.click();
  await expect(page.getByRole('button', { name: 'Copiado', exact: true })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(cip);
  await page.screenshot({ path: testInfo.outputPath('cip-page.png'), fullPage: true });

  await page.getByRole('button', { name: 'Registrar pago en efectivo', exact: true }).click();
  await page.waitForURL(`${payment.payerUrl!}?lang=es`, { timeout: 15_000 });
  await expect(page.getByRole('heading', { name: 'Pago realizado', exact: true })).toBeVisible();
  await expect(page.getByText('El comercio ya recibió la confirmación de tu pago.', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Registrar pago en efectivo' })).toHaveCount(0);
  await expect(page.getByTestId('cip')).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('outcome-paid.png'), fullPage: true });

  const transaction = await queryTransaction(request, payment);
  expectPaid(
    transaction.lifecycle.map((entry) => entry.state),
    transaction.state,
  );
  expect(transaction.processor_response?.cip).toBe(cip);
  expect(transaction.processor_response?.result_message.code).toBe('100');
  expect(site.visits).toEqual([]);
});

test.describe('one payment only', () => {
  test('a double click on the pay button makes one payment', async ({ page, request, site }) => {
    const payment = await createPayment(request, 'BANK_TRANSFER', { details: merchantDetails(site, 'BANK_TRANSFER') });
    await page.goto(payment.payerUrl!);
    await page.getByRole('button', { name: 'Confirmar transferencia', exact: true }).dblclick();
    const back = await waitForMerchant(page, site);
    expect(back.search).toBe(returnQuery(payment, 'AUTORIZADO'));

    const transaction = await queryTransaction(request, payment);
    expectPaid(
      transaction.lifecycle.map((entry) => entry.state),
      transaction.state,
    );
    const operation = await storedOperation(payment.merchant.code, payment.number, ASYNC_PORT);
    expect(operation.events.filter((event) => event.type === 'transaction.authorized')).toHaveLength(1);
    expect(site.visits).toHaveLength(1);
  });

  test('two submissions of the pay form at once (the button guard bypassed) make one payment', async ({
    page,
    request,
    site,
  }) => {
    const payment = await createPayment(request, 'BANK_TRANSFER', { details: merchantDetails(site, 'BANK_TRANSFER') });
    await page.goto(payment.payerUrl!);
    const action = await page
      .locator('form')
      .filter({ has: page.getByRole('button', { name: 'Confirmar transferencia' }) })
      .getAttribute('action');
    expect(action).toBe(`${new URL(payment.payerUrl!).pathname}/pay?lang=es`);
    const answers = await page.evaluate(async (target) => {
      const send = () => fetch(target, { method: 'POST', body: new FormData(), redirect: 'manual' });
      return (await Promise.all([send(), send(), send()])).map((response) => response.type);
    }, action!);
    expect(answers).toEqual(['opaqueredirect', 'opaqueredirect', 'opaqueredirect']);

    const transaction = await queryTransaction(request, payment);
    expectPaid(
      transaction.lifecycle.map((entry) => entry.state),
      transaction.state,
    );
    const operation = await storedOperation(payment.merchant.code, payment.number, ASYNC_PORT);
    expect(operation.events.filter((event) => event.type === 'transaction.authorized')).toHaveLength(1);
  });

  test('two tabs: paying in the second after the first shows "Pago realizado" and pays once', async ({ page, request, site }) => {
    const payment = await createPayment(request, 'BANK_TRANSFER', { details: merchantDetails(site, 'BANK_TRANSFER') });
    const second = await page.context().newPage();
    await page.goto(payment.payerUrl!);
    await second.goto(payment.payerUrl!);
    await expect(second.getByRole('button', { name: 'Confirmar transferencia', exact: true })).toBeEnabled();

    await page.getByRole('button', { name: 'Confirmar transferencia', exact: true }).click();
    expect((await waitForMerchant(page, site)).search).toBe(returnQuery(payment, 'AUTORIZADO'));

    await second.getByRole('button', { name: 'Confirmar transferencia', exact: true }).click();
    await second.waitForURL(`${payment.payerUrl!}?lang=es`, { timeout: 15_000 });
    await expect(second.getByRole('heading', { name: 'Pago realizado', exact: true })).toBeVisible();
    await expect(second.getByTestId('outcome')).toHaveAttribute('data-state', /^(AUTORIZADO|LIQUIDADO)$/);
    await expect(second.getByRole('button', { name: 'Confirmar transferencia' })).toHaveCount(0);

    const transaction = await queryTransaction(request, payment);
    expectPaid(
      transaction.lifecycle.map((entry) => entry.state),
      transaction.state,
    );
    expect(site.visits).toHaveLength(1);
  });
});

test('a paid link still says "Pago realizado" after the settlement cut-off (LIQUIDADO)', async ({ page, request, site }) => {
  const payment = await createPayment(request, 'BANK_TRANSFER', { details: merchantDetails(site, 'BANK_TRANSFER') });
  await page.goto(payment.payerUrl!);
  await page.getByRole('button', { name: 'Confirmar transferencia', exact: true }).click();
  expect((await waitForMerchant(page, site)).search).toBe(returnQuery(payment, 'AUTORIZADO'));
  // Settlement 3 s after the authorization (worker every 100 ms).
  await expect.poll(async () => (await queryTransaction(request, payment)).state, { timeout: 10_000 }).toBe('LIQUIDADO');
  expect((await queryTransaction(request, payment)).lifecycle.map((entry) => entry.state)).toEqual([
    'REGISTRADO',
    'PENDIENTE',
    'AUTORIZADO',
    'LIQUIDADO',
  ]);
  await page.goto(payment.payerUrl!);
  await expect(page.getByTestId('outcome')).toHaveAttribute('data-state', 'LIQUIDADO');
  await expect(page.getByRole('heading', { name: 'Pago realizado', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Confirmar transferencia' })).toHaveCount(0);
});

test('English: ?lang=en translates the page, the language link switches both ways', async ({ page, request, site }) => {
  const payment = await createPayment(request, 'BANK_TRANSFER', { details: merchantDetails(site, 'BANK_TRANSFER') });
  await page.goto(`${payment.payerUrl!}?lang=en`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Complete your payment');
  await expect(page.locator('main')).toHaveAttribute('lang', 'en');
  await expect(page.getByTestId('amount')).toHaveText('S/ 150.00');
  await expect(page.getByText('Bank transfer', { exact: true })).toBeVisible();
  await expect(page.getByTestId('countdown')).toHaveText(/^Expires in \d{2}:\d{2}$/);
  await expect(page.getByRole('button', { name: 'Confirm transfer', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel and go back', exact: true })).toBeVisible();

  await page.getByRole('link', { name: 'Español', exact: true }).click();
  await page.waitForURL(`${payment.payerUrl!}?lang=es`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Completa tu pago');
  await expect(page.locator('main')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('button', { name: 'Confirmar transferencia', exact: true })).toBeVisible();

  await page.getByRole('link', { name: 'English', exact: true }).click();
  await page.waitForURL(`${payment.payerUrl!}?lang=en`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Complete your payment');

  // Paying in English: back at the merchant, and the link then says so in English.
  await page.getByRole('button', { name: 'Confirm transfer', exact: true }).click();
  expect((await waitForMerchant(page, site)).search).toBe(returnQuery(payment, 'AUTORIZADO'));
  await page.goto(`${payment.payerUrl!}?lang=en`);
  await expect(page.getByRole('heading', { name: 'Payment made', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to the merchant', exact: true })).toBeVisible();
});

test('keyboard: the pay button is reached with Tab, shows a visible focus ring, and Enter pays', async ({
  page,
  request,
  site,
}) => {
  const payment = await createPayment(request, 'BANK_TRANSFER', { details: merchantDetails(site, 'BANK_TRANSFER') });
  await page.goto(payment.payerUrl!);
  const pay = page.getByRole('button', { name: 'Confirmar transferencia', exact: true });
  await expect(pay).toBeVisible();
  let reached = false;
  for (let presses = 0; presses < 6 && !reached; presses += 1) {
    await page.keyboard.press('Tab');
    reached = await pay.evaluate((element) => element === document.activeElement);
  }
  expect(reached, 'the pay button is reachable with Tab').toBe(true);
  const ring = await pay.evaluate((element) => {
    const style = getComputedStyle(element);
    return { shadow: style.boxShadow, outline: style.outlineStyle };
  });
  expect(ring.shadow !== 'none' || ring.outline !== 'none', `focus style ${JSON.stringify(ring)}`).toBe(true);
  await page.keyboard.press('Enter');
  expect((await waitForMerchant(page, site)).search).toBe(returnQuery(payment, 'AUTORIZADO'));
});

test("the page hydrates without script errors when the payer's clock is a few seconds off the server's", async ({
  page,
  request,
  site,
}) => {
  // A phone clock 7 s ahead (common): the countdown's first client render must still match
  // the server's HTML, or React reports a hydration error (#418) and re-renders the page.
  await page.clock.install({ time: Date.now() + 7_000 });
  const errors = collectErrors(page);
  const payment = await createPayment(request, 'BANK_TRANSFER', { details: merchantDetails(site, 'BANK_TRANSFER') });
  await page.goto(payment.payerUrl!);
  await expect(page.getByTestId('countdown')).toHaveText(/^Vence en \d{2}:\d{2}$/);
  await page.waitForTimeout(1_500);
  await expect(page.getByRole('button', { name: 'Confirmar transferencia', exact: true })).toBeEnabled();
  expect(errors).toEqual([]);
});

test('an unknown link says the payment was not found', async ({ page }) => {
  await page.goto(`${ASYNC_ORIGIN}/pay/AAAAAAAAAAAAAAAAAAAAAAAA`);
  await expect(page.getByRole('heading', { name: 'No encontramos este pago', exact: true })).toBeVisible();
  await expect(page.getByRole('button')).toHaveCount(0);
});

test.describe('phone layout (375x667)', () => {
  test.use({ viewport: { width: 375, height: 667 } });
  const labels: Record<PayerMethod, string> = {
    BANK_TRANSFER: 'Confirmar transferencia',
    CUOTEALO: 'Aprobar crédito en cuotas',
    PAGOEFECTIVO: 'Registrar pago en efectivo',
    QR: 'Pagar con QR',
  };
  for (const method of ['BANK_TRANSFER', 'CUOTEALO', 'PAGOEFECTIVO'] as const) {
    test(`${method}: the buttons fit the width and nothing scrolls sideways`, async ({ page, request, site }) => {
      const payment = await createPayment(request, method, { details: merchantDetails(site, method) });
      await page.goto(payment.payerUrl!);
      for (const name of [labels[method], 'Cancelar y volver']) {
        const box = await page.getByRole('button', { name, exact: true }).boundingBox();
        expect(box, name).not.toBeNull();
        expect(box!.x, name).toBeGreaterThanOrEqual(0);
        expect(box!.x + box!.width, name).toBeLessThanOrEqual(375);
      }
      if (method === 'PAGOEFECTIVO') {
        const box = (await page.getByTestId('cip').boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(375);
      }
      const widths = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        body: document.body.scrollWidth,
      }));
      expect(widths.scroll).toBeLessThanOrEqual(375);
      expect(widths.body).toBeLessThanOrEqual(375);
    });
  }
});
