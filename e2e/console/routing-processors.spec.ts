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

  // An amount range no payment can meet: refused, the error beside the first route.
  const editor = page.getByTestId('rule-editor');
  const first = editor.getByTestId('route').first();
  await first.getByLabel('Importe mínimo (céntimos)').fill('90000');
  await first.getByLabel('Importe máximo (céntimos)').fill('100');
  await editor.getByRole('button', { name: 'Guardar borrador' }).click();
  await expect(first.getByTestId('route-errors')).toContainText('conditions.amount_max');
  expect((await operatorConsole().routing.routing.query({ merchantCode: merchant.code, method: 'CARD' })).draft).toBeNull();

  // Mastercard to acquirer B first: saved, tried, published.
  await first.getByLabel('Importe mínimo (céntimos)').fill('');
  await first.getByLabel('Importe máximo (céntimos)').fill('');
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
  const health = page.getByTestId('health');
  await expect(health).toContainText('sandbox-acquirer-a');
  await expect(health).toContainText('sandbox-acquirer-b');
  await expectPhoneWidth(page);
  await page.screenshot({ path: testInfo.outputPath('processors.png'), fullPage: true });
});
