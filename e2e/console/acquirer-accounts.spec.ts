import { expect, test } from '@playwright/test';
import { randomBytes, randomInt } from 'node:crypto';
import { signIn } from '../support/console';
import { IZIPAY_SIMULATOR, NIUBIZ_SIMULATOR, simulatorControl } from '../support/processors';
import { createConsoleUser, createMerchant, operatorConsole } from '../support/service';

// Peru's acquirers in the console (docs/processors/README.md): a merchant admin connects a Niubiz
// account (merchant code, API user, password, the merchant's RUC) and an Izipay shop (shop id, REST password), each
// form asking for that processor's own keys; the connection test asks the processor (Niubiz's
// security API, Izipay's REST API), and the passwords never come back to the page.

test('a merchant admin connects a Niubiz account and an Izipay shop with their own keys, and tests both', async ({
  page,
}, testInfo) => {
  const merchant = await createMerchant('PAQ');
  const admin = await createConsoleUser('MERCHANT_ADMIN', merchant.code);
  const niubiz = {
    merchantId: String(randomInt(100_000_000, 1_000_000_000)),
    user: `integraciones+${randomBytes(4).toString('hex')}@niubiz.test`,
    password: randomBytes(9).toString('base64url'),
  };
  const izipay = {
    shopId: String(randomInt(10_000_000, 100_000_000)),
    password: `testpassword_${randomBytes(24).toString('hex')}`,
  };
  await simulatorControl(NIUBIZ_SIMULATOR, 'accounts', niubiz);
  await simulatorControl(IZIPAY_SIMULATOR, 'accounts', { shop_id: izipay.shopId, password: izipay.password });
  await signIn(page, admin.email, '/processors/accounts', admin.password);

  const form = page.getByTestId('connect-account');
  await form.getByLabel('Procesador').selectOption('niubiz');
  await form.getByLabel('Nombre de la cuenta').fill('Niubiz tienda');
  await form.getByLabel('QR').check();
  await form.getByLabel('Código de comercio').fill(niubiz.merchantId);
  await form.getByLabel('Usuario de la API').fill(niubiz.user);
  await form.getByLabel('Contraseña de la API').fill(niubiz.password);
  await form.getByLabel('RUC del comercio (opcional)').fill('20100047218');
  await form.getByRole('button', { name: 'Conectar cuenta' }).click();
  await expect(page.getByTestId('webhook-setup')).toContainText('Cuenta Niubiz tienda conectada.');
  await expect(page.getByTestId('setup-url')).toHaveText(/\/api\/notifications\/niubiz\/[0-9a-f-]{36}$/);

  await form.getByLabel('Procesador').selectOption('izipay');
  await form.getByLabel('Nombre de la cuenta').fill('Izipay tienda');
  await expect(form.getByLabel('Usuario de la API')).toHaveCount(0);
  await form.getByLabel('Identificador de tienda').fill(izipay.shopId);
  await form.getByLabel('Contraseña REST').fill(izipay.password);
  await form.getByRole('button', { name: 'Conectar cuenta' }).click();
  await expect(page.getByTestId('webhook-setup')).toContainText('Cuenta Izipay tienda conectada.');

  const { accounts } = await operatorConsole().processorAccounts.accounts.query({ merchantCode: merchant.code });
  expect(
    accounts.map((account) => [account.processor, account.publicKey, account.apiUser, account.taxId, account.methods]),
  ).toEqual([
    ['niubiz', niubiz.merchantId, niubiz.user, '20100047218', ['CARD', 'QR']],
    ['izipay', izipay.shopId, null, null, ['CARD']],
  ]);
  for (const account of accounts) {
    const row = page.getByTestId(`account-${account.connectorId}`);
    await row.getByRole('button', { name: `Probar conexión de ${account.name}` }).click();
    await expect(row.getByTestId('check')).toContainText('Aceptada');
  }
  // A short password's hint shows none of it; Izipay's shows its prefix and last four.
  await expect(page.getByTestId(`account-${accounts[0]!.connectorId}`).getByTestId('secret-hint')).toHaveText('…');
  await expect(page.getByTestId(`account-${accounts[1]!.connectorId}`).getByTestId('secret-hint')).toHaveText(
    `testpassword_…${izipay.password.slice(-4)}`,
  );
  await page.reload();
  const html = await page.content();
  expect(html).not.toContain(niubiz.password);
  expect(html).not.toContain(izipay.password);
  await page.screenshot({ path: testInfo.outputPath('acquirer-accounts.png'), fullPage: true });
});
