import { expect, test } from '@playwright/test';
import { callProcedure, demoCharge, signIn } from '../support/console';
import { createConsoleUser, createMerchant, settleNow, storedOperation } from '../support/service';

// An operation's actions as the browser calls them: another merchant's operation does not exist
// for a merchant user even through the procedures, and the single-transaction refund of the
// operation page files one refund that shows at once, for admins only.

const FIELDS = { canal: 'console', reason: 'talla equivocada', description: 'cambio por otra talla' };

/** What a refused call must leave as it was: every transaction's state and lifecycle, refunds and events. */
async function footprint(merchantCode: string, number: string) {
  const stored = await storedOperation(merchantCode, number);
  return {
    transactions: stored.transactions.map((row) => ({ state: row.state, lifecycle: row.lifecycle.map((entry) => entry.state) })),
    refunds: stored.refunds.length,
    events: stored.events.map((event) => event.type),
  };
}

test("a merchant admin calling the procedures on another merchant's operation gets 404 and changes nothing", async ({
  page,
  request,
}) => {
  const other = await createMerchant('SCOPE');
  const pending = await demoCharge(request, 'QR', { merchant: other });
  const settled = await demoCharge(request, 'CARD', { merchant: other });
  expect(await settleNow(other.code, [settled.transactionId])).toBe(1);
  const before = {
    pending: await footprint(other.code, pending.number),
    settled: await footprint(other.code, settled.number),
  };
  expect(before.pending.transactions).toEqual([{ state: 'PENDIENTE', lifecycle: ['REGISTRADO', 'PENDIENTE'] }]);

  await signIn(page, 'owner@demo.pe');
  const read = await callProcedure(page, 'console.operation', { transactionId: pending.transactionId }, 'query');
  expect(read.status).toBe(404);
  expect(JSON.stringify(read.body)).not.toContain(pending.number);
  expect(JSON.stringify(read.body)).not.toContain(other.code);
  const cancel = await callProcedure(page, 'console.cancel', { transactionId: pending.transactionId });
  expect(cancel.status).toBe(404);
  expect(JSON.stringify(cancel.body)).not.toContain(pending.number);
  const reverse = await callProcedure(page, 'console.cancel', { transactionId: settled.transactionId });
  expect(reverse.status).toBe(404);
  const refund = await callProcedure(page, 'console.refund', { transactionId: settled.transactionId, additional_fields: FIELDS });
  expect(refund.status).toBe(404);

  expect({
    pending: await footprint(other.code, pending.number),
    settled: await footprint(other.code, settled.number),
  }).toEqual(before);
});

test('the operation page files a total refund of a settled card payment: REGISTERED at once, then no button; a viewer has none', async ({
  page,
  request,
}, testInfo) => {
  const merchant = await createMerchant('ONEREF');
  const viewer = await createConsoleUser('MERCHANT_VIEWER', merchant.code);
  const admin = await createConsoleUser('MERCHANT_ADMIN', merchant.code);
  const card = await demoCharge(request, 'CARD', { merchant });
  expect(await settleNow(merchant.code, [card.transactionId])).toBe(1);
  const refundButton = page.getByRole('button', { name: 'Solicitar reembolso' });

  await signIn(page, viewer.email, `/operations/${card.transactionId}`, viewer.password);
  await expect(page.getByRole('heading', { name: card.number })).toBeVisible();
  await expect(page.getByText('Tu rol es de solo lectura.')).toBeVisible();
  await expect(refundButton).toHaveCount(0);
  await page.getByRole('button', { name: 'Salir' }).click();
  await expect(page).toHaveURL(/\/login/);

  await signIn(page, admin.email, `/operations/${card.transactionId}`, admin.password);
  await expect(page.getByTestId('refund')).toHaveCount(0);
  await refundButton.click();
  await expect(page.getByText('Se puede reembolsar hasta S/ 150.00: todo o una parte.')).toBeVisible();
  await expect(page.getByLabel('Monto a reembolsar')).toHaveValue('150.00');
  await page.getByLabel('Motivo').fill(FIELDS.reason);
  await page.getByLabel('Descripción').fill(FIELDS.description);
  await page.getByRole('button', { name: 'Registrar reembolso' }).click();

  const filed = page.getByTestId('refund');
  await expect(filed).toHaveCount(1);
  await expect(filed).toContainText('Solicitado');
  await expect(filed).toContainText(FIELDS.reason);
  await expect(refundButton).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('operation-refunded.png'), fullPage: true });
  await page.reload();
  await expect(page.getByTestId('refund')).toContainText('Solicitado');
  await expect(refundButton).toHaveCount(0);

  const refunds = (await storedOperation(merchant.code, card.number)).refunds;
  expect(refunds.map((row) => [row.state, row.type, row.transactionId, String(row.refundAmount), row.additionalFields])).toEqual([
    ['REGISTERED', 'TOTAL', card.transactionId, '15000', FIELDS],
  ]);
});
