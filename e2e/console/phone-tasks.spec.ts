import { expect, test } from '@playwright/test';
import { clickHydrated, demoCharge, signIn } from '../support/console';
import { createConsoleUser, createMerchant, settleNow, storedOperation } from '../support/service';
import { WIDTHS } from '../support/widths';

// A merchant's common tasks on a 390 px phone (issue 29, point 2): the sections through the menu
// button, finding an operation and opening it, reversing an authorization, a partial refund, and
// why a delivery waits. Each on a merchant of its own, so no other test's data is in its lists.

test.use({ viewport: WIDTHS.phone });

test('the menu button opens the sections, Escape closes them and gives the focus back', async ({ page }) => {
  await signIn(page, 'owner@demo.pe', '/operations');
  const menu = page.getByRole('button', { name: 'Menú' });
  const sections = page.getByRole('navigation', { name: 'Secciones' });
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(menu).toHaveAttribute('aria-controls', 'console-sections');
  await expect(sections).toBeHidden();
  // The page's first click: on the server's HTML, before React has hydrated the button, it does nothing.
  await clickHydrated(menu);
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await expect(sections.getByRole('link', { name: 'Resumen' })).toBeFocused();
  await expect(sections.getByRole('link', { name: 'Operaciones' })).toHaveAttribute('aria-current', 'page');
  await page.keyboard.press('Escape');
  await expect(sections).toBeHidden();
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(menu).toBeFocused();
  // A link followed closes the list on the new page.
  await menu.click();
  await sections.getByRole('link', { name: 'Reembolsos' }).click();
  await expect(page).toHaveURL(/\/refunds$/);
  await expect(page.getByRole('heading', { name: 'Reembolsos', level: 1 })).toBeVisible();
  await expect(sections).toBeHidden();
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
});

test('on a phone a merchant finds an operation by its number, sees its state and amount, opens it and reverses it', async ({
  page,
  request,
}) => {
  const merchant = await createMerchant('PHREV');
  const admin = await createConsoleUser('MERCHANT_ADMIN', merchant.code);
  const card = await demoCharge(request, 'CARD', { merchant, prefix: 'phrev' });
  await demoCharge(request, 'CARD', { merchant, prefix: 'phother' });
  await signIn(page, admin.email, '/operations', admin.password);
  await page.getByLabel('Buscar').fill(card.number);
  await page.getByRole('button', { name: 'Aplicar filtros' }).click();
  await expect(page).toHaveURL(new RegExp(`search=${card.number}`));
  const row = page.getByTestId('operation-row');
  await expect(row).toHaveCount(1);
  // The card keeps the operation, its state, amount and date on screen, without sideways scrolling.
  for (const part of [row.getByRole('link', { name: card.number }), row.getByText('Autorizado'), row.getByText('S/ 150.00')]) {
    await expect(part).toBeInViewport();
  }
  await expect(row.getByText(/\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2}/)).toBeInViewport();
  expect(await page.getByTestId('operations-table').evaluate((box) => box.scrollWidth <= box.clientWidth)).toBe(true);

  await row.getByRole('link', { name: card.number }).click();
  await expect(page.getByRole('heading', { name: card.number })).toBeVisible();
  await page.getByRole('button', { name: 'Extornar operación' }).click();
  await page.getByRole('button', { name: 'Sí, extornar' }).click();
  await expect(page.getByRole('list', { name: 'Historial' }).getByRole('listitem').last()).toContainText('Extornado');
  expect((await storedOperation(merchant.code, card.number)).transactions[0]!.state).toBe('EXTORNADO');
});

test('on a phone a merchant files a partial refund of a settled payment from its page', async ({ page, request }) => {
  const merchant = await createMerchant('PHREF');
  const admin = await createConsoleUser('MERCHANT_ADMIN', merchant.code);
  const card = await demoCharge(request, 'CARD', { merchant, prefix: 'phref' });
  expect(await settleNow(merchant.code, [card.transactionId])).toBe(1);
  await signIn(page, admin.email, `/operations/${card.transactionId}`, admin.password);
  await clickHydrated(page.getByRole('button', { name: 'Solicitar reembolso' }));
  await expect(page.getByText('Se puede reembolsar hasta S/ 150.00: todo o una parte.')).toBeVisible();
  await page.getByLabel('Monto a reembolsar').fill('40.00');
  await page.getByLabel('Motivo').fill('una prenda devuelta');
  await page.getByRole('button', { name: 'Registrar reembolso' }).click();
  await expect(page.getByTestId('refund')).toHaveCount(1);
  await expect(page.getByTestId('money-in-process')).toContainText('S/ 40.00');
  await expect(page.getByTestId('money-refundable')).toContainText('S/ 110.00');
  expect((await storedOperation(merchant.code, card.number)).refunds.map((refund) => String(refund.refundAmount))).toEqual([
    '4000',
  ]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(WIDTHS.phone.width);
});

test('on a phone the operation page says why a delivery to a callback_url that does not resolve waits', async ({
  page,
  request,
}) => {
  const merchant = await createMerchant('PHWAIT');
  const admin = await createConsoleUser('MERCHANT_ADMIN', merchant.code);
  // A name under .invalid never resolves (RFC 6761); the suites' service lets such hosts through its guard.
  const card = await demoCharge(request, 'CARD', {
    merchant,
    prefix: 'phwait',
    details: { callback_url: 'http://nonexistent.invalid/hook' },
  });
  await signIn(page, admin.email, `/operations/${card.transactionId}`, admin.password);
  const delivery = page.getByTestId('callback-event').filter({ hasText: 'nonexistent.invalid' }).first();
  // Tried once (the name does not resolve), then a retry on its schedule.
  await expect
    .poll(
      async () => {
        await page.reload();
        return (await delivery.getByTestId('callback-attempts').count()) > 0;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  await expect(delivery).toContainText('Pendiente');
  await expect(delivery.getByTestId('delivery-wait')).toHaveText(/^Espera: reintento programado para .+\.$/);
  // On screen once scrolled down to, with no sideways scrolling of its table.
  await delivery.getByTestId('delivery-wait').scrollIntoViewIfNeeded();
  await expect(delivery.getByTestId('delivery-wait')).toBeInViewport();
  const table = delivery.locator('xpath=ancestor::div[@role="region"]');
  expect(await table.evaluate((box) => box.scrollLeft === 0 && box.scrollWidth <= box.clientWidth)).toBe(true);
  await expect(delivery.getByTestId('callback-attempts')).toContainText(
    'El nombre nonexistent.invalid no existe o no tiene dirección',
  );
});
