import { expect, test } from '@playwright/test';
import { charge, chargeBody, operationNumber, tokenFor } from '../support/api-client';
import { expectPhoneWidth, procedureStatus, signIn } from '../support/console';
import { createMerchant, operatorConsole, storedOperation, uniqueCode } from '../support/service';

// /platform: merchants, facilitators and the settlement cut-off, for platform staff. Tests make
// their own merchants and facilitators and settle only their own merchant (the service is shared).

test('a platform admin creates a facilitator and a merchant, links them, edits its methods and unlinks it', async ({
  page,
}, testInfo) => {
  const facilitator = uniqueCode('FAC');
  const code = uniqueCode('PLT');
  await signIn(page, 'admin@demo.pe', '/platform');
  await expect(page.getByRole('heading', { level: 1, name: 'Plataforma' })).toBeVisible();

  const newFacilitator = page.getByRole('form', { name: 'Nuevo facilitador' });
  await newFacilitator.getByLabel('Código').fill(facilitator);
  await newFacilitator.getByLabel('Nombre').fill('Pasarela Andina');
  await newFacilitator.getByRole('button', { name: 'Crear facilitador' }).click();
  await expect(page.getByTestId('facilitator-row').filter({ hasText: facilitator })).toContainText('Pasarela Andina');

  const newMerchant = page.getByRole('form', { name: 'Nuevo comercio' });
  await newMerchant.getByLabel('Código').fill(code);
  await newMerchant.getByLabel('Nombre').fill('Tienda Miraflores');
  await newMerchant.getByRole('button', { name: 'Crear comercio' }).click();
  await expect(page).toHaveURL(new RegExp(`/platform/merchants/${code}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Comercio Tienda Miraflores');
  await expect(page.getByTestId('current-facilitator')).toContainText('Ninguno');

  await page.getByLabel('Facilitador', { exact: true }).selectOption(facilitator);
  await page.getByRole('button', { name: 'Vincular' }).click();
  await expect(page.getByTestId('current-facilitator')).toContainText(`${facilitator} — Pasarela Andina`);

  await page.getByRole('checkbox', { name: 'Yape', exact: true }).uncheck();
  await page.getByRole('checkbox', { name: 'Cuotéalo', exact: true }).uncheck();
  await page.getByRole('button', { name: 'Guardar medios' }).click();
  await expect(page.getByText('Medios guardados.')).toBeVisible();
  const settings = await operatorConsole().settings.merchant.query({ merchantCode: code });
  expect([settings.name, settings.facilitator?.code, settings.enabledMethods]).toEqual([
    'Tienda Miraflores',
    facilitator,
    ['CARD', 'BANK_TRANSFER', 'PAGOEFECTIVO', 'QR'],
  ]);
  await page.screenshot({ path: testInfo.outputPath('platform-merchant.png'), fullPage: true });

  await page.getByRole('button', { name: 'Desvincular' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('dejarán de actuar por este comercio');
  await page.getByRole('button', { name: 'Sí, desvincular' }).click();
  await expect(page.getByTestId('current-facilitator')).toContainText('Ninguno');
  expect((await operatorConsole().settings.merchant.query({ merchantCode: code })).facilitator).toBeNull();

  await page.getByRole('link', { name: 'Volver a Plataforma' }).click();
  await expect(page.getByRole('search', { name: 'Buscar comercios' })).toHaveAttribute('data-hydrated', 'true');
  await page.getByLabel('Código o nombre').fill(code.toLowerCase());
  await page.getByRole('button', { name: 'Aplicar filtros' }).click();
  await expect(page).toHaveURL(new RegExp(`q=${code.toLowerCase()}`));
  await expect(page.getByTestId('merchant-row')).toHaveCount(1);
  await expect(page.getByTestId('merchant-row')).toContainText('Tienda Miraflores');
  await expect(page.getByTestId('merchant-row')).toContainText('CARD BANK_TRANSFER PAGOEFECTIVO QR');

  const link = page.getByRole('form', { name: 'Vincular un comercio' });
  await link.getByLabel('Facilitador').selectOption(facilitator);
  await link.getByLabel('Código de comercio').fill(code);
  await link.getByRole('button', { name: 'Vincular' }).click();
  await expect(page.getByTestId('facilitator-row').filter({ hasText: facilitator })).toContainText(code);
  await expect(page.getByTestId('merchant-row')).toContainText(facilitator);
  await page.screenshot({ path: testInfo.outputPath('platform.png'), fullPage: true });
});

test("a platform admin runs a merchant's settlement cut-off: its authorized card payment becomes LIQUIDADO", async ({
  page,
  request,
}) => {
  const merchant = await createMerchant('STL');
  const number = operationNumber('stl');
  const authorized = await charge(request, await tokenFor(request, merchant), chargeBody(merchant.code, number, 'CARD'));
  expect(((await authorized.json()) as { transaction: { state: string } }).transaction.state).toBe('AUTORIZADO');

  await signIn(page, 'admin@demo.pe', '/platform');
  // The cut-off for every merchant says what it would do; this test answers no (others' payments stay as they are).
  await page.getByRole('button', { name: 'Ejecutar el corte de liquidación ahora' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('Todas las transacciones autorizadas de todos los comercios (ahora');
  await page.getByRole('button', { name: 'No', exact: true }).click();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await expect(page.getByTestId('settled-result')).toHaveCount(0);

  await page.goto(`/platform/merchants/${merchant.code}`);
  await expect(page.getByTestId('awaiting-settlement')).toHaveText(
    'Hay 1 transacción autorizada esperando el corte de liquidación.',
  );
  await page.getByRole('button', { name: 'Ejecutar el corte de liquidación de este comercio ahora' }).click();
  await expect(page.getByRole('alertdialog')).toContainText(
    'Todas las transacciones autorizadas de este comercio (ahora 1) pasan a liquidadas',
  );
  await page.getByRole('button', { name: 'Sí, liquidar ahora' }).click();
  const result = page.getByTestId('settled-result');
  await expect(result).toHaveText(/^Se liquid(ó|aron) \d+ transacci(ón|ones)\.$/);
  expect(Number(/\d+/.exec((await result.textContent())!)![0])).toBeGreaterThanOrEqual(1);
  const stored = await storedOperation(merchant.code, number);
  expect(stored.transactions.map((transaction) => transaction.state)).toEqual(['LIQUIDADO']);
  await expect(page.getByTestId('awaiting-settlement')).toContainText('Hay 0 transacciones autorizadas');
});

test('support sees /platform read-only and is refused every platform change with 403', async ({ page }) => {
  const merchant = await createMerchant('SUP');
  await signIn(page, 'support@demo.pe', '/platform');
  await expect(page.getByTestId('read-only-note')).toHaveText('Soporte: ves todo, pero no puedes cambiar nada.');
  await expect(page.getByRole('form')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Ejecutar|Rotar/ })).toHaveCount(0);
  await expect(page.getByTestId('callback-key').first()).toContainText('Firma ahora');
  await expectPhoneWidth(page);
  await page.goto(`/platform/merchants/${merchant.code}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Comercio Test ${merchant.code}`);
  await expect(page.getByRole('checkbox', { name: 'Tarjeta', exact: true })).toBeDisabled();
  await expect(page.getByRole('button', { name: /Guardar|Vincular|Ejecutar|Agregar/ })).toHaveCount(0);
  await expectPhoneWidth(page);

  const named = { merchantCode: merchant.code };
  const attempts: [string, object][] = [
    ['platform.createMerchant', { code: uniqueCode('NO'), name: 'No' }],
    ['platform.createFacilitator', { code: uniqueCode('NO'), name: 'No' }],
    ['platform.linkMerchant', { facilitatorCode: 'X', merchantCode: merchant.code }],
    ['platform.unlinkMerchant', named],
    ['platform.settleNow', named],
    ['platform.rotateCallbackKey', {}],
    ['settings.updateProfile', { ...named, name: 'Cambiado', supportEmail: null }],
    ['settings.updateMethods', { ...named, enabledMethods: ['CARD'] }],
    ['settings.addUser', { ...named, email: `${uniqueCode('x').toLowerCase()}@test.pe`, name: '', role: 'MERCHANT_ADMIN' }],
  ];
  for (const [procedure, input] of attempts) {
    expect(await procedureStatus(page, `console.${procedure}`, input), procedure).toBe(403);
  }
  expect(await procedureStatus(page, 'console.platform.merchants', { search: merchant.code }, 'query')).toBe(200);
  const after = await operatorConsole().settings.merchant.query(named);
  expect([after.name, after.enabledMethods.length]).toEqual([`Test ${merchant.code}`, 6]);
  expect(await operatorConsole().settings.users.query(named)).toEqual([]);
});

test('a platform admin rotates the callback signing key: the new one signs, the old one stays published 7 days', async ({
  page,
  request,
}) => {
  const before = (await (await request.get('/api/webhooks/keys')).json()) as { keys: { kid: string; status: string }[] };
  const active = before.keys.find((key) => key.status === 'active')!;
  await signIn(page, 'admin@demo.pe', '/platform');
  const table = page.getByTestId('callback-keys');
  await expect(table.getByTestId('callback-key').filter({ hasText: active.kid })).toContainText('Firma ahora');
  await page.getByRole('button', { name: 'Rotar la llave de firma' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('sigue publicada 7 días');
  await page.getByRole('button', { name: 'Sí, rotar' }).click();
  const status = page.getByTestId('rotated-key');
  await expect(status).toContainText('firma desde ahora');
  const rotated = /La llave ([0-9a-f]{16})/.exec((await status.textContent()) ?? '')![1]!;
  await expect(table.getByTestId('callback-key').filter({ hasText: rotated })).toContainText('Firma ahora');
  await expect(table.getByTestId('callback-key').filter({ hasText: active.kid })).toContainText('Publicada (solapamiento)');

  const after = (await (await request.get('/api/webhooks/keys')).json()) as {
    keys: { kid: string; status: string; retires_at: string | null }[];
  };
  expect(after.keys.find((key) => key.kid === rotated)).toMatchObject({ status: 'active', retires_at: null });
  const retiring = after.keys.find((key) => key.kid === active.kid)!;
  expect(retiring.status).toBe('retiring');
  const days = (Date.parse(retiring.retires_at!) - Date.now()) / 86_400_000;
  expect(days).toBeGreaterThan(6.9);
  expect(days).toBeLessThanOrEqual(7);
  const current = await request.get('/api/webhooks/public-key');
  expect(current.headers()['key-id']).toBe(rotated);
});

test('/settings sends platform staff to /platform', async ({ page }) => {
  await signIn(page, 'support@demo.pe', '/platform');
  await page.goto('/settings');
  await expect(page).toHaveURL(/\/platform$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Plataforma' })).toBeVisible();
});
