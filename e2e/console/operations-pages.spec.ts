import { expect, test, type Page } from '@playwright/test';
import { charge, chargeBody, operationNumber, read, requestRefund, tokenFor } from '../support/api-client';
import { demoCharge, download, signIn, switchLanguage } from '../support/console';
import { csvObjects } from '../support/csv';
import { createConsoleUser, createMerchant, settleNow, storedOperation, uniqueCode } from '../support/service';
import { type ErrorReply } from '../support/api-types';

// The operations pages as text, in two languages and on a phone: what a payer or integrator
// sends is shown as text and never runs; English by the header's switch; 375 px wide.
const IMG = '<img src=x onerror="window.__xss=1">';
const SCRIPT = '<script>window.__xss=1</script>';

async function expectNothingInjected(page: Page): Promise<void> {
  await expect(page.locator('img[src=x]')).toHaveCount(0);
  await expect(page.locator('script').filter({ hasText: /^window\.__xss=1$/ })).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
}

test('payer names and refund texts with markup show as literal text in the list, the page and the CSV', async ({
  page,
  request,
}) => {
  const merchant = await createMerchant('XSS');
  const { email, password } = await createConsoleUser('MERCHANT_ADMIN', merchant.code);
  const charged = await demoCharge(request, 'CARD', { merchant, customer: { first_name: IMG, last_name: SCRIPT } });
  expect(await settleNow(merchant.code)).toBe(1);
  const refund = await requestRefund(request, await tokenFor(request, merchant), merchant.code, charged.number, '15000', {
    canal: 'web',
    reason: SCRIPT,
    description: IMG,
  });
  expect(refund.state).toBe('REGISTERED');

  await signIn(page, email, `/operations?search=${charged.number}`, password);
  await expect(page.getByTestId('operation-row')).toHaveCount(1);
  await expect(page.getByTestId('operation-row')).toContainText(`${IMG} ${SCRIPT}`);
  await expectNothingInjected(page);

  await page.getByRole('link', { name: charged.number }).click();
  await expect(page.getByTestId('payer-name')).toHaveText(`${IMG} ${SCRIPT}`);
  await expect(page.getByTestId('refund')).toContainText(SCRIPT);
  await expect(page.getByTestId('refund')).toContainText(IMG);
  await expectNothingInjected(page);

  await page.goto(`/operations?search=${charged.number}`);
  const rows = csvObjects((await download(page, page.getByTestId('export-csv'))).bytes.subarray(3).toString('utf8'));
  expect(rows.map((row) => [row.merchant_operation_number, row.payer_name])).toEqual([[charged.number, `${IMG} ${SCRIPT}`]]);
  await expectNothingInjected(page);
});

// An email passes z.email (no <, >, " or spaces), so the most markup-like address a payer or a
// console user can have is quotes and pluses around an attribute name.
const QUOTED = "o'neil+'onmouseover'-x";

test('payer emails and state reasons show as literal text; an email holding markup is refused by the API', async ({
  page,
  request,
}) => {
  const merchant = await createMerchant('XSSM');
  const token = await tokenFor(request, merchant);
  const refusedNumber = operationNumber('xssm');
  const refused = await read<ErrorReply>(
    await charge(request, token, chargeBody(merchant.code, refusedNumber, 'QR', { customer: { email: `${IMG}@example.pe` } })),
  );
  expect([refused.status, refused.body.errors.map((error) => error.field)]).toEqual([400, ['payment_details.customer.email']]);
  await expect(storedOperation(merchant.code, refusedNumber)).rejects.toThrow(/no such operation/);

  // The console shows the customer's email (billing and shipping emails are kept, never shown).
  const payerEmail = `${QUOTED}@example.pe`;
  const qr = await demoCharge(request, 'QR', { merchant, customer: { email: payerEmail } });
  // A state_reason is the service's own text; the only outside text it ever holds is the email of
  // the console user who cancelled or reversed ("Operación cancelada (console <email>)"), an
  // address a merchant admin chose for its people. So the canceller here has a quoted one.
  const canceller = await createConsoleUser(
    'MERCHANT_ADMIN',
    merchant.code,
    undefined,
    `${QUOTED}-${uniqueCode('u').toLowerCase()}@test.pe`,
  );
  const injected = page.locator('[onmouseover], [onerror]');

  await signIn(page, canceller.email, `/operations?search=${qr.number}`, canceller.password);
  await expect(page.getByTestId('operation-row')).toContainText(payerEmail);
  await expect(injected).toHaveCount(0);
  await page.getByRole('link', { name: qr.number }).click();
  await expect(page.getByText(payerEmail, { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Cancelar operación' }).click();
  await page.getByRole('button', { name: 'Sí, cancelar' }).click();
  const reason = `Operación cancelada (console ${canceller.email})`;
  await expect(page.getByText(reason, { exact: true })).toBeVisible();
  await expect(injected).toHaveCount(0);
  await expectNothingInjected(page);

  const stored = (await storedOperation(merchant.code, qr.number)).transactions;
  expect(stored.map((row) => [row.state, row.stateReason, row.payerEmail])).toEqual([['CANCELADO', reason, payerEmail]]);
});

test('the header switch renders the operations pages in English, and back', async ({ page, request }) => {
  const qr = await demoCharge(request, 'QR');
  await signIn(page, 'owner@demo.pe', `/operations?search=${qr.number}`);
  await switchLanguage(page);
  await expect(page.getByRole('heading', { name: 'Operations', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Export CSV' })).toBeVisible();
  await expect(page.getByLabel('Search')).toHaveValue(qr.number);
  await expect(page.getByRole('button', { name: 'Apply filters' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Payer' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  await page.getByRole('link', { name: qr.number }).click();
  await expect(page.getByRole('heading', { name: 'Actions' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'History' }).getByRole('listitem')).toHaveCount(2);
  await expect(page.getByRole('heading', { name: 'Notifications to the merchant' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Resend transaction.registered' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel operation' }).click();
  await expect(page.getByRole('alertdialog')).toContainText("the payer's link, code or QR stops working");
  await page.getByRole('button', { name: 'Yes, cancel' }).click();
  await expect(page.getByText('It cannot be cancelled or reversed: it is already in the state “Cancelled”.')).toBeVisible();

  await page.goto('/operations/00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('heading', { name: 'We could not find this operation' })).toBeVisible();
  // A malformed percent-escape is not a 500 from Next (vercel/next.js#94278): no such operation.
  await page.goto('/operations/%E0%A4%A');
  await expect(page.getByRole('heading', { name: 'We could not find this operation' })).toBeVisible();
  await page.goto('/developers');
  await expect(page.getByRole('heading', { name: 'Delivery log' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create credential' })).toBeVisible();

  await switchLanguage(page);
  await expect(page.getByRole('heading', { name: 'Registro de entregas' })).toBeVisible();
});

test('on a 375 px phone the operations table is cards that fit it, and no page is wider than the screen', async ({
  page,
  request,
}, testInfo) => {
  const card = await demoCharge(request, 'CARD', { details: { callback_url: 'https://merchant.example/callbacks' } });
  await page.setViewportSize({ width: 375, height: 800 });
  await signIn(page, 'owner@demo.pe');
  const table = page.getByTestId('operations-table');
  await expect(table).toBeVisible();
  // Below sm each row is a card (docs/DECISIONS.md, "Every width"): nothing to scroll sideways.
  const widths = await table.evaluate((box) => ({ scroll: box.scrollWidth, client: box.clientWidth }));
  expect(widths.scroll).toBe(widths.client);
  for (const path of ['/operations', `/operations/${card.transactionId}`, '/developers']) {
    await page.goto(path);
    await expect(page.locator('h1')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(375);
    await page.screenshot({ path: testInfo.outputPath(`phone${path.replaceAll('/', '-')}.png`), fullPage: true });
  }
});
