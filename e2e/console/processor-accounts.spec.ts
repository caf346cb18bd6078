import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from '../support/console';
import { CULQI_SIMULATOR, culqiKeys, simulatorControl } from '../support/processors';
import { createConsoleUser, createMerchant, operatorConsole } from '../support/service';

// Connecting a processor account in the console (docs/processors/README.md): a merchant admin
// connects a Culqi account with its keys, gets the webhook URL and credentials once, tests the
// connection (accepted for keys Culqi knows, refused with Culqi's words for others), pauses it,
// and finds it among the connectors of the routing editor; the secret key never comes back to
// the page; a viewer reads without controls. Each test has its own merchant and users.

async function ownMerchant(prefix: string) {
  const merchant = await createMerchant(prefix);
  const admin = await createConsoleUser('MERCHANT_ADMIN', merchant.code);
  return { merchant, admin };
}

async function connect(page: Page, name: string, keys: { publicKey: string; secretKey: string }) {
  const form = page.getByTestId('connect-account');
  await form.getByLabel('Procesador').selectOption('culqi');
  await form.getByLabel('Nombre de la cuenta').fill(name);
  await form.getByLabel('YAPE').check();
  await form.getByLabel('Llave pública').fill(keys.publicKey);
  await form.getByLabel('Llave secreta').fill(keys.secretKey);
  await form.getByRole('button', { name: 'Conectar cuenta' }).click();
  await expect(page.getByTestId('webhook-setup')).toContainText(`Cuenta ${name} conectada.`);
}

test('a merchant admin connects a Culqi account, sets up its webhook, tests it, pauses it and routes to it', async ({
  page,
}, testInfo) => {
  const { merchant, admin } = await ownMerchant('PAC');
  const keys = culqiKeys();
  await simulatorControl(CULQI_SIMULATOR, 'accounts', { public_key: keys.publicKey, secret_key: keys.secretKey });
  await signIn(page, admin.email, '/processors/accounts', admin.password);
  await expect(page.getByRole('heading', { name: 'Cuentas de procesador' })).toBeVisible();
  await expect(page.getByText('Este comercio aún no conectó ninguna cuenta.')).toBeVisible();

  await connect(page, 'Culqi tienda', keys);
  const setup = page.getByTestId('webhook-setup');
  const url = await setup.getByTestId('setup-url').innerText();
  expect(url).toMatch(/\/api\/notifications\/culqi\/[0-9a-f-]{36}$/);
  await expect(setup.getByTestId('setup-user')).toHaveText(/^pagos-[0-9a-f]{8}$/);
  const password = await setup.getByTestId('setup-password').innerText();
  expect(password.length).toBeGreaterThanOrEqual(24);

  const [account] = (await operatorConsole().processorAccounts.accounts.query({ merchantCode: merchant.code })).accounts;
  const row = page.getByTestId(`account-${account!.connectorId}`);
  await expect(row).toContainText('Culqi tienda');
  await expect(row).toContainText('Tarjeta, Yape');
  await expect(row.getByTestId('secret-hint')).toHaveText(`sk_test_…${keys.secretKey.slice(-4)}`);
  await expect(row.getByTestId('check')).toHaveText('sin probar');
  // The secret key never comes back; after a reload the password is gone too.
  await page.reload();
  const html = await page.content();
  expect(html).not.toContain(keys.secretKey);
  expect(html).not.toContain(password);

  await row.getByRole('button', { name: 'Probar conexión de Culqi tienda' }).click();
  await expect(row.getByTestId('check')).toContainText('Aceptada');
  await expect(row.getByTestId('check')).toContainText('Culqi aceptó la llave secreta');

  await row.getByRole('button', { name: 'Pausar Culqi tienda' }).click();
  await expect(row.getByTestId('state')).toHaveText('Pausada');
  // This instance's calls in flight to the account's processor, within its bulkhead.
  await expect(row.getByTestId('calls')).toHaveText(/^0 de [1-9][\d.]* llamadas en curso$/);
  await row.getByRole('button', { name: 'Activar Culqi tienda' }).click();
  await expect(row.getByTestId('state')).toHaveText('Activa');

  // The methods it carries, then new keys (the processor rotated them): sealed, the test cleared.
  const settings = row.getByTestId('account-settings');
  const openSettings = async () => {
    if (!(await settings.evaluate((element) => (element as HTMLDetailsElement).open))) {
      await settings.getByText('Cambiar medios o llaves de Culqi tienda').click();
    }
  };
  await openSettings();
  await settings.getByLabel('YAPE').uncheck();
  await settings.getByRole('button', { name: 'Guardar medios' }).click();
  await expect(row.locator('td').nth(2)).toHaveText('Tarjeta');
  const rotated = culqiKeys();
  await simulatorControl(CULQI_SIMULATOR, 'accounts', { public_key: rotated.publicKey, secret_key: rotated.secretKey });
  await openSettings();
  await settings.getByLabel('Llave pública').fill(rotated.publicKey);
  await settings.getByLabel('Llave secreta').fill(rotated.secretKey);
  await settings.getByRole('button', { name: 'Reemplazar llaves' }).click();
  await expect(row.getByTestId('secret-hint')).toHaveText(`sk_test_…${rotated.secretKey.slice(-4)}`);
  await expect(row.getByTestId('check')).toHaveText('sin probar');
  expect(await page.content()).not.toContain(rotated.secretKey);

  const results = await new AxeBuilder({ page }).include('main').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(results.violations.map((violation) => violation.id)).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('processor-accounts.png'), fullPage: true });

  await page.goto('/routing?method=CARD');
  await expect(page.locator('select').first().locator(`option[value="${account!.connectorId}"]`)).toHaveCount(1);
});

test('keys Culqi does not know are connected but their test is refused with Culqi’s words; bad keys are refused at once', async ({
  page,
}) => {
  const { merchant, admin } = await ownMerchant('PAK');
  await signIn(page, admin.email, '/processors/accounts', admin.password);
  // Not registered at Culqi's simulator: Culqi answers 401 to them.
  await connect(page, 'Culqi equivocada', culqiKeys());
  const [account] = (await operatorConsole().processorAccounts.accounts.query({ merchantCode: merchant.code })).accounts;
  const row = page.getByTestId(`account-${account!.connectorId}`);
  await row.getByRole('button', { name: 'Probar conexión de Culqi equivocada' }).click();
  await expect(row.getByTestId('check')).toContainText('Rechazada');

  const form = page.getByTestId('connect-account');
  await form.getByLabel('Nombre de la cuenta').fill('Llaves de producción');
  await form.getByLabel('Llave pública').fill('pk_live_0123456789abcdef');
  await form.getByLabel('Llave secreta').fill('sk_live_0123456789abcdef');
  await form.getByRole('button', { name: 'Conectar cuenta' }).click();
  await expect(form.getByRole('alert')).toContainText('Revisa los campos');
  expect((await operatorConsole().processorAccounts.accounts.query({ merchantCode: merchant.code })).accounts).toHaveLength(1);
});

test('a viewer sees the accounts and no control', async ({ page }) => {
  const { merchant } = await ownMerchant('PAV');
  const keys = culqiKeys();
  await operatorConsole().processorAccounts.connect.mutate({
    merchantCode: merchant.code,
    processor: 'culqi',
    name: 'Culqi vista',
    environment: 'test',
    methods: ['CARD'],
    ...keys,
  });
  const viewer = await createConsoleUser('MERCHANT_VIEWER', merchant.code);
  await signIn(page, viewer.email, '/processors/accounts', viewer.password);
  await expect(page.getByText('Culqi vista')).toBeVisible();
  await expect(page.getByTestId('connect-account')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Probar|Pausar|Eliminar/ })).toHaveCount(0);
  expect(await page.content()).not.toContain(keys.secretKey);
});
