import { PNG } from 'pngjs';
import { ASYNC_ORIGIN } from '../support/service';
import { createPayment, expect, expectPaid, merchantDetails, queryTransaction, stored, test } from './browser-helpers';
import { decodeQr, qrText } from '../support/qr';
import { decodeEmvQr } from '../../tests/support/emv-qr-decoder';

// QR payments (docs/DESIGN.md 8): a real scannable qr_image of an EMVCo payload that no app can
// pay, and the sandbox's simulated-payment page (additional_fields.sandbox.pay_url) with the QR
// and the control that completes the payment.

test('the qr_image decodes exactly to its EMVCo payload; the sandbox page shows the QR and "Pagar con QR" pays', async ({
  page,
  request,
  site,
}, testInfo) => {
  const payment = await createPayment(request, 'QR', { details: merchantDetails(site, 'QR') });
  const processor = payment.transaction.processor_response!;
  expect(processor.result_message.code).toBe('0');
  expect(processor.qr_id).toMatch(/^QR[0-9A-F]{20}$/);
  const qrImage = String(processor.qr_image);

  const row = await stored(payment);
  expect(row.payerToken).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
  const payerUrl = `${ASYNC_ORIGIN}/pay/${row.payerToken}`;
  expect(payment.transaction.additional_fields?.sandbox).toEqual({ pay_url: payerUrl });
  const payload = String(processor.qr_payload);
  expect(decodeQr(qrImage)).toBe(payload);
  expect(decodeEmvQr(payload).additional.get('05')).toBe(processor.qr_id);

  await page.goto(payerUrl);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Completa tu pago');
  await expect(page.getByTestId('merchant')).toHaveText(payment.merchantName);
  await expect(page.getByTestId('amount')).toHaveText('S/ 150.00');
  await expect(page.getByText(payment.number, { exact: true })).toBeVisible();
  await expect(page.getByTestId('countdown')).toHaveText(/^Vence en (1[45]:\d{2})$/);
  await expect(page.getByText('Escanea este código con la app de tu banco o billetera.', { exact: true })).toBeVisible();
  await expect(page.getByText('Sandbox: simula la acción del pagador', { exact: true })).toBeVisible();

  // The QR as the browser draws it: the same image, loaded, and scannable from the screen.
  const qr = page.getByTestId('qr');
  await expect(qr).toBeVisible();
  await expect(qr).toHaveAttribute('src', qrImage);
  expect(await qr.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
  const shot = PNG.sync.read(await qr.screenshot());
  expect(qrText(shot)).toBe(payload);
  await page.screenshot({ path: testInfo.outputPath('qr-page.png'), fullPage: true });

  await page.getByRole('button', { name: 'Pagar con QR', exact: true }).click();
  // No redirect_url for QR: the payer stays on the page, which shows the outcome.
  await page.waitForURL(`${payerUrl}?lang=es`, { timeout: 15_000 });
  await expect(page.getByRole('heading', { name: 'Pago realizado', exact: true })).toBeVisible();
  await expect(page.getByTestId('qr')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Pagar con QR' })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('qr-outcome-paid.png'), fullPage: true });

  const transaction = await queryTransaction(request, payment);
  expectPaid(
    transaction.lifecycle.map((entry) => entry.state),
    transaction.state,
  );
  expect(transaction.processor_response?.qr_id).toBe(processor.qr_id);
  expect(transaction.processor_response?.result_message.code).toBe('0');
  expect(site.visits).toEqual([]);
});

test.describe('phone layout (375x667)', () => {
  test.use({ viewport: { width: 375, height: 667 } });

  test('QR: the QR and the buttons fit the width and nothing scrolls sideways', async ({ page, request, site }) => {
    const payment = await createPayment(request, 'QR', { details: merchantDetails(site, 'QR') });
    const row = await stored(payment);
    await page.goto(`${ASYNC_ORIGIN}/pay/${row.payerToken}`);
    for (const locator of [
      page.getByTestId('qr'),
      page.getByRole('button', { name: 'Pagar con QR', exact: true }),
      page.getByRole('button', { name: 'Cancelar y volver', exact: true }),
    ]) {
      const box = await locator.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(375);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });
});
