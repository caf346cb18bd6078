import { expect, test } from '@playwright/test';
import { operationNumber } from '../support/api-client';
import { demoCharge, download, signIn } from '../support/console';
import { csvObjects } from '../support/csv';
import { createMerchant, ORIGIN } from '../support/service';

// "Export CSV" on /operations: the whole filtered set, as a proper CSV file, for every role in its scope.
const HEADER =
  'transaction_id,merchant_code,merchant_name,merchant_operation_number,method,state,amount,currency,amount_cents,' +
  'captured_amount,refunded_amount,refund_in_process_amount,' +
  'card_brand,masked_pan,payer_name,payer_email,created_at_utc,created_at_local';
const FORMULA = '=HYPERLINK("http://evil.example","clic")';
const TRICKY = { first_name: 'Ana "La Jefa", Quispe', last_name: 'de\nLima', email: '+51-987@example.pe' };

const limaDay = (date: Date) => new Date(date.getTime() - 5 * 3600_000).toISOString().slice(0, 10);

test('an admin exports exactly the filtered operations, quoted and with formulas made inert', async ({
  page,
  request,
}, testInfo) => {
  const prefix = operationNumber('csv');
  const formula = await demoCharge(request, 'CARD', { number: `${prefix}-1`, customer: { first_name: FORMULA, last_name: '' } });
  const tricky = await demoCharge(request, 'CARD', { number: `${prefix}-2`, customer: TRICKY });
  const pending = await demoCharge(request, 'QR', { number: `${prefix}-3` });
  const declined = await demoCharge(request, 'CARD', { number: `${prefix}-4`, details: { pan: '4000000000000002' } });
  expect([formula.state, tricky.state, pending.state, declined.state]).toEqual([
    'AUTORIZADO',
    'AUTORIZADO',
    'PENDIENTE',
    'DENEGADO',
  ]);

  await signIn(page, 'owner@demo.pe');
  await expect(page.getByRole('search')).toHaveAttribute('data-hydrated', 'true');
  await page.getByLabel('Buscar').fill(prefix);
  await page.getByLabel('Estado').selectOption('AUTORIZADO');
  await page.getByRole('button', { name: 'Aplicar filtros' }).click();
  await expect(page.getByTestId('operation-row')).toHaveCount(2);
  await page.screenshot({ path: testInfo.outputPath('operations.png'), fullPage: true });
  await expect(page.getByTestId('export-csv')).toHaveAttribute('href', `/operations/export?search=${prefix}&state=AUTORIZADO`);

  const file = await download(page, page.getByRole('link', { name: 'Exportar CSV' }));
  expect(file.filename).toBe(`operations-${limaDay(new Date())}.csv`);
  expect([...file.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = file.bytes.subarray(3).toString('utf8');
  expect(text.split('\r\n')[0]).toBe(HEADER);
  // The raw text: RFC 4180 quoting (quotes doubled), the guard quote, the line break kept inside quotes.
  expect(text).toContain(`,"'=HYPERLINK(""http://evil.example"",""clic"")",ana.quispe@example.pe,`);
  expect(text).toContain(`,"Ana ""La Jefa"", Quispe de\nLima",'+51-987@example.pe,`);

  const rows = csvObjects(text);
  expect(rows.map((row) => row.merchant_operation_number)).toEqual([`${prefix}-2`, `${prefix}-1`]);
  expect(rows.map((row) => row.transaction_id)).toEqual([tricky.transactionId, formula.transactionId]);
  expect(rows[1]!.payer_name).toBe(`'${FORMULA}`);
  expect(rows[0]).toMatchObject({
    merchant_code: 'DEMO001',
    method: 'CARD',
    state: 'AUTORIZADO',
    amount: '150.00',
    currency: 'PEN',
    amount_cents: '15000',
    captured_amount: '150.00',
    refunded_amount: '0.00',
    refund_in_process_amount: '0.00',
    card_brand: 'VISA',
    masked_pan: '411111******1111',
    payer_name: 'Ana "La Jefa", Quispe de\nLima',
    payer_email: "'+51-987@example.pe",
  });
  for (const row of rows) {
    expect(row.created_at_utc).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const lima = new Date(new Date(row.created_at_utc!).getTime() - 5 * 3600_000).toISOString();
    expect(row.created_at_local).toBe(`${lima.slice(0, 10)} ${lima.slice(11, 19)}`);
  }
});

test('a viewer exports too (it only reads); bad filters are a 400 that says which', async ({ page, request }) => {
  const prefix = operationNumber('csvv');
  const first = await demoCharge(request, 'QR', { number: `${prefix}-a` });
  const second = await demoCharge(request, 'CARD', { number: `${prefix}-b` });
  await signIn(page, 'viewer@demo.pe', `/operations?search=${prefix}&sort=oldest`);
  await expect(page.getByTestId('operation-row')).toHaveCount(2);
  const file = await download(page, page.getByTestId('export-csv'));
  const rows = csvObjects(file.bytes.subarray(3).toString('utf8'));
  expect(rows.map((row) => [row.transaction_id, row.amount, row.state])).toEqual([
    [first.transactionId, '150.00', 'PENDIENTE'],
    [second.transactionId, '150.00', 'AUTORIZADO'],
  ]);

  const bad = await page.request.get('/operations/export?state=PAGADO&min=diez');
  expect(bad.status()).toBe(400);
  expect(await bad.text()).toBe(
    'Los filtros no son válidos (state, min). Corrígelos en la página de operaciones y vuelve a exportar.\n',
  );
  await page.goto('/operations?state=PAGADO');
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(
    'Los filtros no son válidos (state). Revísalos e inténtalo de nuevo.',
  );
  await expect(page.getByTestId('export-csv')).toHaveCount(0);
});

test('without a session the export is refused: no file, the sign-in page', async ({ request }) => {
  const anonymous = await request.get(`${ORIGIN}/operations/export?state=AUTORIZADO`, { maxRedirects: 0 });
  expect(anonymous.status()).toBe(307);
  expect(anonymous.headers()['location']).toMatch(/\/login\?callbackUrl=%2Foperations%2Fexport%3Fstate%3DAUTORIZADO$/);
  expect(anonymous.headers()['content-disposition']).toBeUndefined();
  const forged = await request.get(`${ORIGIN}/operations/export`, {
    headers: { cookie: 'next-auth.session-token=forged' },
    maxRedirects: 0,
  });
  expect(forged.status()).toBe(307);
});

test("a merchant's export never holds another merchant's operations; support's holds both", async ({ page, request }) => {
  const other = await createMerchant('CSVO');
  const prefix = operationNumber('csvo');
  const theirs = await demoCharge(request, 'CARD', { merchant: other, number: `${prefix}-x` });
  const ours = await demoCharge(request, 'CARD', { number: `${prefix}-y` });
  await signIn(page, 'owner@demo.pe', `/operations?search=${prefix}`);
  const own = csvObjects((await download(page, page.getByTestId('export-csv'))).bytes.subarray(3).toString('utf8'));
  expect(own.map((row) => [row.merchant_code, row.transaction_id])).toEqual([['DEMO001', ours.transactionId]]);
  await page.getByRole('button', { name: 'Salir' }).click();
  await expect(page).toHaveURL(/\/login/);
  await signIn(page, 'support@demo.pe', `/operations?search=${prefix}`);
  const all = csvObjects((await download(page, page.getByTestId('export-csv'))).bytes.subarray(3).toString('utf8'));
  expect(all.map((row) => [row.merchant_code, row.transaction_id])).toEqual([
    ['DEMO001', ours.transactionId],
    [other.code, theirs.transactionId],
  ]);
});
