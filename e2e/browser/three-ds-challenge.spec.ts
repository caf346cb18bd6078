import type { APIRequestContext } from '@playwright/test';
import { apiClient, chargeBody, operationNumber } from '../support/api-client';
import { ASYNC_ORIGIN, ASYNC_PORT, createMerchant, operatorConsole } from '../support/service';
import { escapeRegExp, expect, test, type MerchantSite } from './browser-helpers';

// The hosted 3-D Secure challenge (docs/ORCHESTRATION.md 5) in a real browser, at phone width:
// a merchant that authenticates every card payment, a card whose issuer challenges, the code
// typed on the page, and the payer back at the merchant's redirect_url with the state.

const { tokenFor, postCharge, getTransaction } = apiClient(ASYNC_ORIGIN);

test.use({ viewport: { width: 375, height: 740 } });

async function challengedPayment(request: APIRequestContext, site: MerchantSite, pan: string) {
  const merchant = await createMerchant('TDS', undefined, { port: ASYNC_PORT });
  await operatorConsole(ASYNC_PORT).routing.updateThreeDs.mutate({
    merchantCode: merchant.code,
    setting: { mode: 'ALWAYS', overAmount: null },
  });
  const token = await tokenFor(request, merchant);
  const number = operationNumber('tds');
  const body = chargeBody(merchant.code, number, 'CARD', { details: { pan, redirect_url: `${site.origin}/return` } });
  const { status, body: reply, text } = await postCharge(request, token, body);
  expect(status, text).toBe(200);
  expect(reply.transaction.state).toBe('PENDIENTE');
  expect(reply.transaction.continue_url).toMatch(new RegExp(`^${escapeRegExp(ASYNC_ORIGIN)}/pay/[A-Za-z0-9_-]{16,64}$`));
  return { merchant, token, number, transaction: reply.transaction };
}

test('the right code authorizes the payment and returns the payer to the merchant with AUTORIZADO', async ({
  page,
  request,
  site,
}) => {
  const payment = await challengedPayment(request, site, '4000000000003220');
  await page.goto(payment.transaction.continue_url!);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Confirma que eres tú');
  await page.getByTestId('challenge-code').fill('123456');
  await page.getByRole('button', { name: 'Confirmar' }).click();
  await page.waitForURL((url) => url.origin === site.origin && url.pathname === '/return', { timeout: 15_000 });
  const back = new URL(page.url());
  expect(back.searchParams.get('state')).toBe('AUTORIZADO');
  expect(back.searchParams.get('transaction_id')).toBe(payment.transaction.transaction_id);

  const query = await getTransaction(
    request,
    payment.token,
    payment.merchant.code,
    payment.number,
    payment.transaction.transaction_id,
  );
  const [transaction] = query.body.operation.transactions;
  expect(query.body.operation.transactions).toHaveLength(1);
  expect(transaction!.state).toBe('AUTORIZADO');
  expect(transaction!.lifecycle.map((entry) => entry.state)).toEqual(['REGISTRADO', 'PENDIENTE', 'AUTORIZADO']);
  expect(transaction!.additional_fields).toMatchObject({
    processor: 'sandbox-acquirer-a',
    attempt: 1,
    three_ds: { version: '2.2.0', status: 'Y', challenged: true },
  });
});

test('three wrong codes fail the authentication: DENEGADO, and the merchant hears it back', async ({ page, request, site }) => {
  const payment = await challengedPayment(request, site, '4000000000003220');
  await page.goto(payment.transaction.continue_url!);
  for (const left of ['Te quedan 2 intentos', 'Te queda 1 intento']) {
    await page.getByTestId('challenge-code').fill('000000');
    await page.getByRole('button', { name: 'Confirmar' }).click();
    await expect(page.getByTestId('tries-left')).toHaveText(left);
  }
  await page.getByTestId('challenge-code').fill('000000');
  await page.getByRole('button', { name: 'Confirmar' }).click();
  await page.waitForURL((url) => url.origin === site.origin && url.pathname === '/return', { timeout: 15_000 });
  expect(new URL(page.url()).searchParams.get('state')).toBe('DENEGADO');
});
