import { expect, test, type APIRequestContext } from '@playwright/test';
import { chargeBody, charge, headers, operationNumber, tokenFor } from '../support/api-client';
import { expectPhoneWidth, signIn, switchLanguage } from '../support/console';
import { BASE_URL, createConsoleUser, createMerchant } from '../support/service';

type Merchant = Awaited<ReturnType<typeof createMerchant>>;
import { clippedElements, expectNoAxeViolations, WIDTHS } from '../support/widths';

// The console's customers (docs/DECISIONS.md "Card on file", ../shared CARD-ON-FILE.md 7): found by
// the merchant's customer id, e-mail or last 4; a customer's cards with what each rests on and the
// charges made with them ("saved card", "one-click", "merchant-initiated (recurring)"); a card
// removed by an admin, not by a viewer. On a 390 px phone in Spanish and at 1366 px in English.

/** A customer whose card a charge saved, then charged one-click and by the merchant. */
async function customerWithCharges(request: APIRequestContext, merchant: Merchant) {
  const token = await tokenFor(request, merchant);
  const created = await request.post(`${BASE_URL}/customers`, {
    headers: headers(token),
    data: { merchant_code: merchant.code, merchant_customer_id: 'cli-500', email: 'rosa.diaz@example.pe', first_name: 'Rosa' },
  });
  const customerId = ((await created.json()) as { customer: { customer_id: string } }).customer.customer_id;
  const saving = chargeBody(merchant.code, operationNumber('cc'), 'CARD', {
    details: {
      save_card: {
        customer_id: customerId,
        reason: 'RECURRING',
        consent: { accepted_at: '2026-12-03T09:00:00-05:00', terms_version: 'plan-v7', max_amount: '9900' },
      },
    },
  });
  const saved = (await (await charge(request, token, saving)).json()) as {
    transaction: { additional_fields: { saved_card: { card_id: string } } };
  };
  const cardId = saved.transaction.additional_fields.saved_card.card_id;
  const withCard = (details: Record<string, unknown>, number: string) => {
    const body = chargeBody(merchant.code, number, 'CARD', { amount: '4900' });
    return { ...body, payment_method: { method_name: 'CARD', method_details: { card_id: cardId, ...details } } };
  };
  const oneClick = operationNumber('cc1');
  const monthly = operationNumber('ccm');
  expect((await charge(request, token, withCard({}, oneClick))).status()).toBe(200);
  const mit = await charge(request, token, withCard({ initiator: 'MERCHANT', reason: 'RECURRING' }, monthly));
  const mitId = ((await mit.json()) as { transaction: { transaction_id: string } }).transaction.transaction_id;
  return { customerId, cardId, monthly, mitId };
}

test.describe('on a 390 px phone, in Spanish', () => {
  test.use({ viewport: WIDTHS.phone });

  test('an admin finds a customer by last 4, reads its card and charges, and removes the card', async ({ page, request }) => {
    const merchant = await createMerchant('CCPH');
    const admin = await createConsoleUser('MERCHANT_ADMIN', merchant.code);
    const { customerId } = await customerWithCharges(request, merchant);
    await signIn(page, admin.email, '/customers', admin.password);
    await expect(page.getByRole('heading', { name: 'Clientes', level: 1 })).toBeVisible();
    await page.getByLabel('Id de cliente, correo o últimos 4').fill('1111');
    await page.getByRole('button', { name: 'Aplicar filtros' }).click();
    await expect(page).toHaveURL(/q=1111/);
    const row = page.getByTestId('customer-row');
    await expect(row).toHaveCount(1);
    await expect(row.getByText('VISA •••• 1111')).toBeVisible();
    await row.getByRole('link', { name: 'cli-500' }).click();

    await expect(page.getByRole('heading', { name: 'cli-500', level: 1 })).toBeVisible();
    await expect(page.getByTestId('customer-id')).toHaveText(customerId);
    const card = page.getByTestId('saved-card');
    await expect(card.getByText('VISA 411111•••1111')).toBeVisible();
    await expect(card.getByTestId('card-status')).toHaveText('Activa');
    await expect(card.getByText('Recurrente')).toBeVisible();
    await expect(card.getByText(/términos plan-v7/)).toBeVisible();
    await expect(card.getByRole('link', { name: 'el cobro que la guardó' })).toBeVisible();
    await expect(card.getByText('guardado: los cobros iniciados por el comercio lo envían')).toBeVisible();
    const uses = page.getByTestId('customer-charges').getByTestId('card-use');
    await expect(uses).toHaveText(['iniciado por el comercio (recurrente)', 'un clic', 'tarjeta guardada']);
    expect(await clippedElements(page, true)).toEqual([]);
    await expectNoAxeViolations(page, 'customer, phone, es');

    await card.getByRole('button', { name: 'Eliminar tarjeta' }).click();
    await page.getByRole('button', { name: 'Eliminar', exact: true }).click();
    // The page refreshed with the card removed, and what the console said is still on it.
    await expect(card.getByTestId('card-status')).toHaveText('Eliminada');
    await expect(page.getByTestId('card-removed')).toHaveText('Se eliminó VISA 411111•••1111.');
    await expect(card.getByRole('button', { name: 'Eliminar tarjeta' })).toHaveCount(0);
    await expectPhoneWidth(page);
  });
});

test.describe('at 1366 px, in English', () => {
  test.use({ viewport: WIDTHS.desktop });

  test('a viewer reads the customer but cannot remove its card; the operation says merchant-initiated (recurring)', async ({
    page,
    request,
  }) => {
    const merchant = await createMerchant('CCDK');
    const viewer = await createConsoleUser('MERCHANT_VIEWER', merchant.code);
    const { customerId, mitId } = await customerWithCharges(request, merchant);
    await signIn(page, viewer.email, `/customers/${customerId}`, viewer.password);
    await switchLanguage(page);
    await expect(page.getByRole('heading', { name: 'cli-500', level: 1 })).toBeVisible();
    const card = page.getByTestId('saved-card');
    await expect(card.getByTestId('card-status')).toHaveText('Active');
    await expect(card.getByText('Recurring')).toBeVisible();
    await expect(card.getByRole('button', { name: 'Remove card' })).toHaveCount(0);
    await expect(page.getByTestId('customer-charges').getByTestId('card-use')).toHaveText([
      'merchant-initiated (recurring)',
      'one-click',
      'saved the card',
    ]);
    expect(await clippedElements(page, true)).toEqual([]);
    await expectNoAxeViolations(page, 'customer, desktop, en');

    await page.goto(`/operations/${mitId}`);
    await expect(page.getByTestId('card-use')).toHaveText('merchant-initiated (recurring)');
    // Another merchant's customer is not found for this viewer.
    const other = await page.goto(`/customers/${crypto.randomUUID()}`);
    expect(other?.status()).toBe(404);
  });
});
