import { expect, test } from '@playwright/test';
import { chargeBody, operationNumber, postCharge, tokenFor } from '../support/api-client';
import { expectPhoneWidth, signIn } from '../support/console';
import { createConsoleUser, createMerchant, operatorConsole } from '../support/service';

// The Routing and Processors pages (docs/ORCHESTRATION.md 2-4): a merchant admin edits a rule,
// sees an invalid one refused beside its field, tries the draft on its payments and publishes
// it; the processors page shows connectors, breakers and the health of the merchant's traffic.
// Every test makes its own merchant; nothing here changes a connector's mode (shared by all).

test('a merchant admin edits a CARD rule, is refused beside the field, tries the draft and publishes it', async ({
  page,
  request,
}, testInfo) => {
  const merchant = await createMerchant('RTE');
  const admin = await createConsoleUser('MERCHANT_ADMIN', merchant.code);
  // Two recent payments for the try-out: a Visa and a Mastercard.
  const token = await tokenFor(request, merchant);
  for (const pan of ['4111111111111111', '5555555555554444']) {
    const charged = await postCharge(
      request,
      token,
      chargeBody(merchant.code, operationNumber('rte'), 'CARD', { details: { pan } }),
    );
    expect(charged.status, charged.text).toBe(200);
  }

  await signIn(page, admin.email, '/routing?method=CARD', admin.password);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Enrutamiento');
  await expect(page.getByTestId('routes').locator('tbody tr')).toHaveCount(2);

  // Amounts are typed in soles. A range no payment can meet, and an amount with three decimals:
  // refused beside the first route, nothing saved.
  const editor = page.getByTestId('rule-editor');
  const first = editor.getByTestId('route').first();
  const minimum = first.getByLabel('Importe mínimo (soles, o la moneda del pago)');
  const maximum = first.getByLabel('Importe máximo (soles, o la moneda del pago)');
  const draftOf = async () =>
    (await operatorConsole().routing.routing.query({ merchantCode: merchant.code, method: 'CARD' })).draft;
  await minimum.fill('900');
  await maximum.fill('1');
  await editor.getByRole('button', { name: 'Guardar borrador' }).click();
  await expect(first.getByTestId('route-errors')).toHaveText(
    'El importe mínimo (900) supera al máximo (1): ningún pago podría cumplir la ruta.',
  );
  await minimum.fill('10.005');
  await maximum.fill('-5');
  await editor.getByRole('button', { name: 'Guardar borrador' }).click();
  await expect(first.getByTestId('route-errors').locator('li')).toHaveText([
    'Importe mínimo (soles, o la moneda del pago): escribe un importe mayor que cero con hasta dos decimales (por ejemplo 150.50); sin signo.',
    'Importe máximo (soles, o la moneda del pago): escribe un importe mayor que cero con hasta dos decimales (por ejemplo 150.50); sin signo.',
  ]);
  await expect(editor.getByRole('alert').filter({ hasText: 'Revisa los importes marcados' })).toBeVisible();
  expect(await draftOf()).toBeNull();

  // Soles with a comma or a dot are stored in cents, exactly, and shown back in soles.
  await minimum.fill('10,05');
  await maximum.fill('100000');
  await editor.getByRole('button', { name: 'Guardar borrador' }).click();
  await expect(editor.getByText('Borrador guardado.')).toBeVisible();
  expect((await draftOf())?.routes[0]?.conditions).toEqual({ amount_min: '1005', amount_max: '10000000' });
  await page.reload();
  await expect(minimum).toHaveValue('10.05');
  await expect(maximum).toHaveValue('100000.00');

  // Mastercard to acquirer B first: saved, tried, published.
  await minimum.fill('');
  await maximum.fill('');
  await first.getByLabel('Conector').selectOption('sandbox-acquirer-b');
  await first.getByLabel('Marcas (VISA, MASTERCARD…)').fill('MASTERCARD');
  await editor.getByTestId('route').nth(1).getByLabel('Conector').selectOption('sandbox-acquirer-a');
  await editor.getByRole('button', { name: 'Guardar borrador' }).click();
  await expect(editor.getByText('Borrador guardado.')).toBeVisible();
  await editor.getByRole('button', { name: 'Probar con los últimos 1 000 pagos' }).click();
  const tried = page.getByTestId('try-result');
  await expect(tried).toContainText('De 2 pagos recientes irían:');
  await expect(tried).toContainText('sandbox-acquirer-b: 1');
  await expect(tried).toContainText('sandbox-acquirer-a: 1');
  await editor.getByRole('button', { name: 'Publicar' }).click();
  await expect(page.getByRole('heading', { name: 'Regla publicada (v1)' })).toBeVisible();
  await expectPhoneWidth(page);
  await page.screenshot({ path: testInfo.outputPath('routing.png'), fullPage: true });

  // The next Mastercard payment goes where the rule says.
  const routed = await postCharge(
    request,
    token,
    chargeBody(merchant.code, operationNumber('rte'), 'CARD', { details: { pan: '5555555555554444' } }),
  );
  expect(routed.body.transaction.additional_fields).toEqual({ processor: 'sandbox-acquirer-b', attempt: 1 });

  // 3-D Secure over an amount: typed in soles, stored in cents, shown back in soles.
  const threeDs = page.locator('section', { has: page.getByRole('heading', { name: '3-D Secure (tarjetas)' }) });
  const over = threeDs.getByLabel('Importe en soles (o la moneda del pago), solo con «Desde un importe»');
  const threeDsOf = async () =>
    (await operatorConsole().routing.routing.query({ merchantCode: merchant.code, method: 'CARD' })).threeDs;
  await threeDs.getByLabel('Cuándo autenticar').selectOption('OVER');
  await over.fill('250.755');
  await threeDs.getByRole('button', { name: 'Guardar' }).click();
  await expect(threeDs.getByRole('alert')).toHaveText(
    'Escribe el importe en soles, mayor que cero y con hasta dos decimales (por ejemplo 150.50); sin signo.',
  );
  expect((await threeDsOf()).mode).toBe('WHEN_REQUIRED');
  await over.fill('250.75');
  await threeDs.getByRole('button', { name: 'Guardar' }).click();
  await expect.poll(threeDsOf).toEqual({ mode: 'OVER', overAmount: '25075' });
  await page.reload();
  await expect(over).toHaveValue('250.75');
});

test('a viewer reads routing but cannot edit it; the processors page shows connectors and the health of its traffic', async ({
  page,
  request,
}, testInfo) => {
  const merchant = await createMerchant('PRC');
  const viewer = await createConsoleUser('MERCHANT_VIEWER', merchant.code);
  const token = await tokenFor(request, merchant);
  const failover = await postCharge(
    request,
    token,
    chargeBody(merchant.code, operationNumber('prc'), 'CARD', { details: { pan: '4000000000008013' } }),
  );
  expect(failover.body.transaction.state).toBe('AUTORIZADO');

  await signIn(page, viewer.email, '/routing?method=CARD', viewer.password);
  await expect(page.getByText('Tu rol es de solo lectura.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Guardar borrador' })).toHaveCount(0);

  await page.goto('/processors');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Procesadores');
  await expect(page.getByTestId('connector-sandbox-acquirer-a')).toContainText('Tarjeta');
  // Only platform admins get the mode controls.
  await expect(page.getByLabel('Modo de sandbox-acquirer-a')).toHaveCount(0);
  // This instance's calls in flight to the processor and its bulkhead's limit.
  await expect(page.getByTestId('connector-sandbox-acquirer-a').getByTestId('calls')).toHaveText(/^\d+ de [1-9][\d.]*$/);
  const health = page.getByTestId('health');
  await expect(health).toContainText('sandbox-acquirer-a');
  await expect(health).toContainText('sandbox-acquirer-b');
  await expectPhoneWidth(page);
  await page.screenshot({ path: testInfo.outputPath('processors.png'), fullPage: true });
});
