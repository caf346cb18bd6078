import { expect, test, type APIRequestContext } from '@playwright/test';
import { requestRefund, tokenFor, charge, chargeBody, operationNumber, type RefundFields } from '../support/api-client';
import { DEMO, demoCharge, download, signIn, switchLanguage } from '../support/console';
import { csvObjects } from '../support/csv';
import { createMerchant, ORIGIN, settleNow } from '../support/service';

// "Export CSV" on /refunds: every refund the page's filters find, as a CSV file, in the user's scope.
const HEADER =
  'refund_id,merchant_operation_number,transaction_id,type,state,amount,currency,amount_cents,reason,' +
  'created_at_utc,created_at_local,updated_at_utc,updated_at_local';
const SUPPORT_HEADER =
  'refund_id,merchant_code,merchant_operation_number,transaction_id,type,state,amount,currency,amount_cents,reason,' +
  'created_at_utc,created_at_local,updated_at_utc,updated_at_local';
const FORMULA = '=HYPERLINK("http://evil.example","clic")';

const limaDay = (date: Date) => new Date(date.getTime() - 5 * 3600_000).toISOString().slice(0, 10);
/** `2026-11-21 10:04:05` in Lima of a refund body's UTC time (written without the Z). */
const limaClock = (utcTime: string) =>
  new Date(new Date(`${utcTime}Z`).getTime() - 5 * 3600_000).toISOString().replace('T', ' ').slice(0, 19);

/** A settled card payment of the demo merchant, refunded in full through the API with this reason. */
async function refundedDemoCharge(request: APIRequestContext, number: string, reason: string) {
  const payment = await demoCharge(request, 'CARD', { number });
  expect(await settleNow(DEMO.code, [payment.transactionId])).toBe(1);
  const fields: RefundFields = { canal: 'web', reason, description: 'exportación' };
  const refund = await requestRefund(request, await tokenFor(request, DEMO), DEMO.code, number, '15000', fields);
  return { payment, refund };
}

const fileText = (file: { bytes: Buffer }) => file.bytes.subarray(3).toString('utf8');

test('an admin exports exactly the refunds of the filters, with formulas made inert', async ({ page, request }, testInfo) => {
  const prefix = operationNumber('rcsv');
  const formula = await refundedDemoCharge(request, `${prefix}-1`, FORMULA);
  const quoted = await refundedDemoCharge(request, `${prefix}-2`, 'talla "M", no "S"');

  await signIn(page, 'owner@demo.pe', '/refunds');
  await expect(page.getByRole('search')).toHaveAttribute('data-hydrated', 'true');
  await page.getByLabel('N.º de operación').fill(`${prefix}-1`);
  await page.getByLabel('Estado').selectOption('REGISTERED');
  await page.getByRole('button', { name: 'Aplicar filtros' }).click();
  await expect(page.getByTestId('refund-row')).toHaveCount(1);
  await page.screenshot({ path: testInfo.outputPath('refunds.png'), fullPage: true });
  await expect(page.getByTestId('export-csv')).toHaveAttribute(
    'href',
    `/refunds/export?merchant_operation_number=${prefix}-1&state=REGISTERED`,
  );

  const file = await download(page, page.getByRole('link', { name: 'Exportar CSV' }));
  expect(file.filename).toBe(`refunds-${limaDay(new Date())}.csv`);
  expect([...file.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = fileText(file);
  expect(text.split('\r\n')[0]).toBe(HEADER);
  // The raw text: the guard quote, quotes doubled inside a quoted cell.
  expect(text).toContain(`,"'=HYPERLINK(""http://evil.example"",""clic"")",`);
  const registered = formula.refund.lifecycle[0]!.date.utc_time;
  expect(csvObjects(text)).toEqual([
    {
      refund_id: formula.refund.refund_id,
      merchant_operation_number: `${prefix}-1`,
      transaction_id: formula.payment.transactionId,
      type: 'TOTAL',
      state: 'REGISTERED',
      amount: '150.00',
      currency: 'PEN',
      amount_cents: '15000',
      reason: `'${FORMULA}`,
      created_at_utc: `${registered}Z`,
      created_at_local: limaClock(registered),
      updated_at_utc: `${registered}Z`,
      updated_at_local: limaClock(registered),
    },
  ]);

  // Another filter of the page, by transaction: the other refund alone.
  await page.goto(`/refunds?transaction_id=${quoted.payment.transactionId}`);
  await expect(page.getByTestId('refund-row')).toHaveCount(1);
  const other = csvObjects(fileText(await download(page, page.getByTestId('export-csv'))));
  expect(other.map((row) => [row.refund_id, row.merchant_operation_number, row.reason])).toEqual([
    [quoted.refund.refund_id, `${prefix}-2`, 'talla "M", no "S"'],
  ]);
});

test("support's export names each refund's merchant; a merchant's never holds another merchant's refunds", async ({
  page,
  request,
}) => {
  const merchant = await createMerchant('RCSVO');
  const token = await tokenFor(request, merchant);
  const number = operationNumber('rcsvo');
  expect((await charge(request, token, chargeBody(merchant.code, number, 'CARD'))).status()).toBe(200);
  expect(await settleNow(merchant.code)).toBe(1);
  const fields: RefundFields = { canal: 'web', reason: 'cliente', description: 'otra tienda' };
  const refund = await requestRefund(request, token, merchant.code, number, '15000', fields);

  await signIn(page, 'support@demo.pe', `/refunds?merchant_code=${merchant.code}`);
  await expect(page.getByTestId('refund-row')).toHaveCount(1);
  const file = fileText(await download(page, page.getByTestId('export-csv')));
  expect(file.split('\r\n')[0]).toBe(SUPPORT_HEADER);
  expect(csvObjects(file).map((row) => [row.refund_id, row.merchant_code, row.merchant_operation_number, row.amount])).toEqual([
    [refund.refund_id, merchant.code, number, '150.00'],
  ]);
  await page.getByRole('button', { name: 'Salir' }).click();
  await expect(page).toHaveURL(/\/login/);

  await signIn(page, 'viewer@demo.pe', '/refunds');
  const theirs = await page.request.get(`/refunds/export?merchant_code=${merchant.code}`);
  expect(theirs.status()).toBe(200);
  expect((await theirs.text()).replace(/^\uFEFF/, '')).toBe(`${HEADER}\r\n`);
});

test('bad filters are a 400 that says which, in the visitor language; without a session, the sign-in page', async ({
  page,
  request,
}) => {
  await signIn(page, 'viewer@demo.pe', '/refunds');
  const bad = await page.request.get('/refunds/export?state=PAGADO&start_date=2026-02-30');
  expect(bad.status()).toBe(400);
  expect(await bad.text()).toBe(
    'Los filtros no son válidos (start_date, state). Corrígelos en la página de reembolsos y vuelve a exportar.\n',
  );
  await switchLanguage(page);
  await expect(page.getByRole('link', { name: 'Export CSV' })).toBeVisible();
  const english = await page.request.get('/refunds/export?state=PAGADO');
  expect([english.status(), await english.text()]).toEqual([
    400,
    'The filters are not valid (state). Fix them on the refunds page and export again.\n',
  ]);
  await page.goto('/refunds?state=PAGADO');
  await expect(page.getByRole('main').getByRole('alert')).toBeVisible();
  await expect(page.getByTestId('export-csv')).toHaveCount(0);

  const anonymous = await request.get(`${ORIGIN}/refunds/export?state=REGISTERED`, { maxRedirects: 0 });
  expect(anonymous.status()).toBe(307);
  expect(anonymous.headers()['location']).toMatch(/\/login\?callbackUrl=%2Frefunds%2Fexport%3Fstate%3DREGISTERED$/);
  expect(anonymous.headers()['content-disposition']).toBeUndefined();
});
