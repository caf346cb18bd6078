import { expect, test } from '@playwright/test';
import { demoCharge, signIn } from '../support/console';
import { createConsoleUser, createMerchant, settleNow, storedOperation } from '../support/service';

// Capture later and refunds in parts in the console (docs/DECISIONS.md "Capture later, refunds
// in parts"): the routing page sets the merchant's capture, the operation page captures a part
// and files a partial refund, the batch form another, and each transaction shows what was
// authorized, captured, refunded and is still refundable.

test('a merchant admin captures part of a card payment, then refunds it in parts on the operation page and in the batch form', async ({
  page,
  request,
}, testInfo) => {
  const merchant = await createMerchant('CAPCON');
  const admin = await createConsoleUser('MERCHANT_ADMIN', merchant.code);

  await signIn(page, admin.email, '/routing?method=CARD', admin.password);
  const capture = page.getByRole('region', { name: 'Captura (tarjetas)' });
  await capture.getByLabel('Cuándo capturar').selectOption('MANUAL');
  await capture.getByLabel(/Plazo para capturar/).fill('5');
  await capture.getByRole('button', { name: 'Guardar' }).click();
  await expect(capture.getByLabel('Cuándo capturar')).toHaveValue('MANUAL');
  await page.screenshot({ path: testInfo.outputPath('routing-capture.png'), fullPage: true });

  // The setting reaches the API within the merchant cache's 2 s.
  await expect
    .poll(
      async () =>
        (await storedOperation(merchant.code, (await demoCharge(request, 'CARD', { merchant })).number)).transactions[0]!
          .captureStatus,
      {
        timeout: 10_000,
      },
    )
    .toBe('UNCAPTURED');
  const card = await demoCharge(request, 'CARD', { merchant });
  await page.goto(`/operations/${card.transactionId}`);
  await expect(page.getByTestId('money-captured')).toContainText('sin capturar');
  await page.getByRole('button', { name: 'Capturar pago' }).click();
  await page.getByLabel('Monto a capturar').fill('90');
  await page.getByRole('button', { name: 'Capturar', exact: true }).click();
  await expect(page.getByTestId('money-captured')).toContainText('S/ 90.00');
  await expect(page.getByRole('button', { name: 'Capturar pago' })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('operation-captured.png'), fullPage: true });
  expect((await storedOperation(merchant.code, card.number)).transactions[0]).toMatchObject({
    captureStatus: 'CAPTURED',
    capturedAmount: '9000',
  });

  expect(await settleNow(merchant.code, [card.transactionId])).toBe(1);
  await page.reload();
  await expect(page.getByTestId('money-refundable')).toContainText('S/ 90.00');
  await page.getByRole('button', { name: 'Solicitar reembolso' }).click();
  await expect(page.getByText('Se puede reembolsar hasta S/ 90.00: todo o una parte.')).toBeVisible();
  await page.getByLabel('Monto a reembolsar').fill('40.00');
  await page.getByLabel('Motivo').fill('una prenda devuelta');
  await page.getByRole('button', { name: 'Registrar reembolso' }).click();
  await expect(page.getByTestId('refund')).toHaveCount(1);
  // Filed, not refunded yet: in process until the processor confirms it.
  await expect(page.getByTestId('action-done')).toHaveText(
    'Reembolso de S/ 40.00 registrado: queda en proceso hasta que el procesador lo confirme.',
  );
  await expect(page.getByTestId('money-refunded')).toContainText('S/ 0.00');
  await expect(page.getByTestId('money-in-process')).toContainText('S/ 40.00');
  await expect(page.getByTestId('money-refundable')).toContainText('S/ 50.00');
  await page.screenshot({ path: testInfo.outputPath('operation-partial-refund.png'), fullPage: true });

  await page.goto('/refunds/new');
  await expect(page.getByRole('search')).toHaveAttribute('data-hydrated', 'true');
  await page.getByLabel(`Incluir ${card.number}`).check();
  const item = page.getByTestId('batch-item').filter({ hasText: card.number });
  await item.getByLabel(`Monto de ${card.number} (vacío: todo)`).fill('20');
  await page
    .getByRole('group', { name: 'Motivo para todos los ítems' })
    .getByLabel('Motivo', { exact: true })
    .fill('otra prenda devuelta');
  await page.getByRole('button', { name: 'Solicitar 1 reembolso' }).click();
  await page.getByRole('button', { name: 'Sí, solicitar' }).click();
  await expect(page.getByRole('status').filter({ hasText: '1 reembolso registrado' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('refund-batch-partial.png'), fullPage: true });

  const stored = await storedOperation(merchant.code, card.number);
  expect(stored.refunds.map((refund) => [refund.type, String(refund.refundAmount), refund.state])).toEqual([
    ['PARTIAL', '4000', 'REGISTERED'],
    ['PARTIAL', '2000', 'REGISTERED'],
  ]);
  expect(stored.transactions[0]!.refundedAmount).toBe('6000');
});
