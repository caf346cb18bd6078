import { Webhook } from 'standardwebhooks';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { callProcedure, demoCharge, expectPhoneWidth, signIn } from '../support/console';
import { startReceiver, type Receiver } from '../support/receiver';
import { createConsoleUser, createMerchant, operatorConsole, ORIGIN, type TestMerchant } from '../support/service';

// Webhook endpoints on /developers: a merchant admin adds one, tests it, gets the events of
// charges without a callback_url, disables, enables and removes it; a refused URL creates
// nothing; viewers and support only read. Every test makes its own merchant and users. The API
// suite's worker polls every 500 ms, so a first delivery arrives within a second or two.
const test = base.extend<{ receiver: Receiver }>({
  receiver: async ({}, use) => {
    const receiver = await startReceiver();
    await use(receiver);
    await receiver.close();
  },
});

async function ownMerchantAdmin(prefix: string) {
  const merchant = await createMerchant(prefix);
  const admin = await createConsoleUser('MERCHANT_ADMIN', merchant.code);
  return { merchant, admin };
}

/** A QR charge of the merchant that names no callback_url: its events go to the webhook endpoints. */
async function chargeWithoutCallback(request: Parameters<typeof demoCharge>[0], merchant: TestMerchant, prefix: string) {
  return demoCharge(request, 'QR', { merchant, prefix, details: { callback_url: undefined } });
}

/** The transaction events of one operation the receiver has got. */
function eventsOf(receiver: Receiver, number: string): string[] {
  return receiver.received
    .filter((callback) => callback.body.includes(number))
    .map((callback) => String(callback.json.event_type));
}

/** No WCAG A/AA violation axe can find in the webhook endpoints section as it stands. */
async function expectAccessibleSection(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page })
    .include('[data-testid="webhook-endpoints"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(results.violations.map((violation) => violation.id)).toEqual([]);
}

const endpointRow = (page: Page, url: string) => page.getByTestId('webhook-endpoint').filter({ hasText: url });

test('a merchant admin adds an endpoint, tests it, gets charge events, disables, enables and removes it', async ({
  page,
  request,
  receiver,
}, testInfo) => {
  const { merchant, admin } = await ownMerchantAdmin('WHK');
  const url = receiver.url('/hooks');
  await signIn(page, admin.email, '/developers', admin.password);
  const section = page.getByRole('region', { name: 'Endpoints de webhooks' });
  await expect(section).toBeVisible();
  await expect(section.getByText('Este comercio aún no tiene endpoints de webhooks.')).toBeVisible();
  await expect(page.getByTestId('webhook-disabled-notice')).toHaveCount(0);

  const form = page.getByRole('form', { name: 'Nuevo endpoint' });
  await expect(form.getByRole('checkbox', { name: 'Todos los eventos' })).toBeChecked();
  await form.getByLabel('URL del endpoint').fill(url);
  await form.getByLabel('Descripción (opcional)').fill('Pedidos de la tienda');
  await form.getByRole('button', { name: 'Agregar endpoint' }).click();
  // The signing secret, shown this once.
  const shown = page.getByTestId('webhook-secret');
  await expect(shown).toContainText(`Endpoint ${url} agregado.`);
  await expect(shown).toContainText('El secreto se muestra solo esta vez: cópialo ahora.');
  const secret = (await shown.getByTestId('webhook-secret-value').textContent())!;
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  const row = endpointRow(page, url);
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Pedidos de la tienda');
  await expect(row).toContainText('Todos los eventos');
  await expect(row.getByTestId('webhook-state')).toHaveText('Activo');
  await expect(row.getByTestId('webhook-pending')).toHaveText('0');
  const stored = await operatorConsole().webhooks.endpoints.query({ merchantCode: merchant.code });
  expect(stored.map((item) => [item.url, item.eventTypes, item.description, item.enabled])).toEqual([
    [url, ['*'], 'Pedidos de la tienda', true],
  ]);
  await expectPhoneWidth(page);
  await page.setViewportSize({ width: 1280, height: 800 });

  // A test: its id on the page, and a POST at the endpoint that is not an event (no event_id or event_type).
  await row.getByRole('button', { name: `Enviar una prueba a ${url}` }).click();
  const sent = row.getByTestId('webhook-test-sent');
  await expect(sent).toHaveText(/^Prueba [0-9a-f-]{36} en cola: llegará en unos segundos\.$/);
  const testId = /([0-9a-f-]{36})/.exec((await sent.textContent()) ?? '')![1]!;
  await receiver.waitFor((received) => received.some((callback) => callback.json.test_id === testId));
  const delivered = receiver.received.find((callback) => callback.json.test_id === testId)!;
  expect(delivered.path).toBe('/hooks');
  expect(delivered.json).toEqual({
    success: 'true',
    action: 'test',
    merchant_code: merchant.code,
    test_id: testId,
    webhook_endpoint: { id: expect.any(String), url },
    meta: expect.any(Object),
  });
  // Standard Webhooks: the reference library verifies it with the secret shown once.
  expect(delivered.headers['webhook-id']).toBe(testId);
  expect(new Webhook(secret).verify(delivered.body, delivered.headers)).toMatchObject({ test_id: testId });
  await page.reload();
  expect(await page.content()).not.toContain(secret);
  await expect(endpointRow(page, url).getByTestId('webhook-secret-hint')).toContainText(`whsec_…${secret.slice(-4)}`);

  // A charge without callback_url: its transaction events come to the endpoint.
  const first = await chargeWithoutCallback(request, merchant, 'whk-on');
  await receiver.waitFor((received) => received.some((callback) => callback.body.includes(first.number)));
  expect(eventsOf(receiver, first.number)).toContain('transaction.registered');
  expect(eventsOf(receiver, first.number).every((type) => type.startsWith('transaction.'))).toBe(true);

  // Disabled: a new charge's events do not come.
  await row.getByRole('button', { name: `Desactivar ${url}` }).click();
  await expect(row.getByTestId('webhook-state')).toContainText('Desactivado');
  await expect(row.getByTestId('webhook-state')).toContainText('por un usuario');
  await expect(row.getByRole('button', { name: /^Enviar una prueba/ })).toHaveCount(0);
  await expect(page.getByTestId('webhook-disabled-notice')).toHaveCount(0);
  const second = await chargeWithoutCallback(request, merchant, 'whk-off');
  await page.waitForTimeout(3_000);
  expect(eventsOf(receiver, second.number)).toEqual([]);

  // Enabled again: the next charge's events come (the one made while disabled stays undelivered).
  await row.getByRole('button', { name: `Activar ${url}` }).click();
  await expect(row.getByTestId('webhook-state')).toHaveText('Activo');
  const third = await chargeWithoutCallback(request, merchant, 'whk-again');
  await receiver.waitFor((received) => received.some((callback) => callback.body.includes(third.number)));
  expect(eventsOf(receiver, third.number)).toContain('transaction.registered');
  expect(eventsOf(receiver, second.number)).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('webhook-endpoints.png'), fullPage: true });

  // Removed after the confirmation ("No" first keeps it).
  await row.getByRole('button', { name: `Eliminar ${url}` }).click();
  const confirm = row.getByRole('alertdialog', { name: `¿Eliminar el endpoint ${url}?` });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'No' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: `Eliminar ${url}` }).click();
  await row.getByRole('alertdialog').getByRole('button', { name: 'Sí, eliminar' }).click();
  await expect(page.getByTestId('webhook-endpoint')).toHaveCount(0);
  await expect(section.getByText('Este comercio aún no tiene endpoints de webhooks.')).toBeVisible();
  expect(await operatorConsole().webhooks.endpoints.query({ merchantCode: merchant.code })).toEqual([]);
});

test('a charge without callback_url shows each endpoint’s deliveries on its page and in the log, and why one waits', async ({
  page,
  request,
  receiver,
}, testInfo) => {
  const { merchant, admin } = await ownMerchantAdmin('WHD');
  const url = receiver.url('/seen');
  // A name under .invalid never resolves (RFC 6761); the suites' service lets such hosts through its guard.
  const unresolved = 'http://nonexistent.invalid/hooks';
  for (const each of [url, unresolved]) {
    await operatorConsole().webhooks.create.mutate({ merchantCode: merchant.code, url: each, eventTypes: ['*'] });
  }
  const charged = await chargeWithoutCallback(request, merchant, 'whd');
  await receiver.waitFor(() => eventsOf(receiver, charged.number).includes('transaction.pending'));
  const types = eventsOf(receiver, charged.number);
  expect(types).toEqual(['transaction.registered', 'transaction.pending']);

  await signIn(page, admin.email, `/operations/${charged.transactionId}`, admin.password);
  await expect(page.getByRole('heading', { name: 'Notificaciones al comercio' })).toBeVisible();
  const rows = page.getByTestId('callback-event');
  const seen = rows.filter({ hasText: new URL(url).host });
  const waiting = rows.filter({ hasText: 'nonexistent.invalid' });
  await expect(seen).toHaveCount(2);
  for (const [index, type] of types.entries()) {
    await expect(seen.nth(index)).toContainText(type);
    await expect(seen.nth(index)).toContainText('Endpoint de webhooks');
    await expect(seen.nth(index)).toContainText('Entregado');
    await expect(seen.nth(index).getByTestId('callback-attempts').getByRole('listitem')).toHaveText([/^#1 · 200 · \d+ ms$/]);
  }
  // The first event's delivery to the host that does not resolve: tried once, retried on its schedule.
  await expect
    .poll(
      async () => {
        await page.reload();
        return (await waiting.first().getByTestId('callback-attempts').count()) > 0;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  await expect(waiting).toHaveCount(2);
  await expect(waiting.first()).toContainText('transaction.registered');
  await expect(waiting.first()).toContainText('Pendiente');
  await expect(waiting.first().getByTestId('callback-attempts').getByRole('listitem')).toHaveText([
    /^#1 · sin respuesta · \d+ ms\s*El nombre nonexistent\.invalid no existe o no tiene dirección/,
  ]);
  await expect(waiting.first().getByTestId('delivery-wait')).toHaveText(/^Espera: reintento programado para .+\.$/);
  // The next event waits for it: an operation's events reach each endpoint in order.
  await expect(waiting.nth(1)).toContainText('transaction.pending');
  await expect(waiting.nth(1)).toContainText('Sin intentos aún');
  await expect(waiting.nth(1).getByTestId('delivery-wait')).toHaveText(
    'Espera: un evento anterior de la operación sigue pendiente a este destino (se entregan en orden).',
  );
  // A resend goes to an operation's callback_url: an endpoint's delivery has none.
  await expect(page.getByRole('button', { name: /^Reenviar/ })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('operation-endpoint-deliveries.png'), fullPage: true });

  // The delivery log lists the same four, and the endpoints table counts the two pending.
  await page.goto('/developers');
  const log = page.getByTestId('callback-event').filter({ hasText: charged.number });
  await expect(log).toHaveCount(4);
  await expect(log.filter({ hasText: new URL(url).host }).filter({ hasText: 'Entregado' })).toHaveCount(2);
  const logWaiting = log.filter({ hasText: 'nonexistent.invalid' });
  await expect(logWaiting.getByTestId('delivery-wait')).toHaveText([
    'Espera: un evento anterior de la operación sigue pendiente a este destino (se entregan en orden).',
    /^Espera: reintento programado para /,
  ]);
  await expect(endpointRow(page, unresolved).getByTestId('webhook-pending')).toHaveText('2');
  await expect(endpointRow(page, url).getByTestId('webhook-pending')).toHaveText('0');
});

test('a refused URL shows its error and creates nothing; chosen event types replace "every event"', async ({ page }) => {
  const { merchant, admin } = await ownMerchantAdmin('WHKERR');
  await signIn(page, admin.email, '/developers', admin.password);
  const form = page.getByRole('form', { name: 'Nuevo endpoint' });
  const url = form.getByLabel('URL del endpoint');
  // A URL the browser accepts but the service refuses: not http(s).
  await url.fill('ftp://example.com/hooks');
  await form.getByRole('button', { name: 'Agregar endpoint' }).click();
  await expect(form.getByRole('alert')).toHaveText('Revisa los campos marcados.');
  await expect(url).toHaveAttribute('aria-invalid', 'true');
  await expect(url).toHaveAccessibleDescription(/Debe ser una URL absoluta que empiece por http:\/\/ o https:\/\//);
  await expect(page.getByTestId('webhook-endpoint')).toHaveCount(0);
  expect(await operatorConsole().webhooks.endpoints.query({ merchantCode: merchant.code })).toEqual([]);
  await expectAccessibleSection(page);

  // Choosing types unchecks "every event", and "every event" clears them.
  const every = form.getByRole('checkbox', { name: 'Todos los eventos' });
  await form.getByRole('checkbox', { name: 'transaction.authorized' }).check();
  await expect(every).not.toBeChecked();
  await every.check();
  await expect(form.getByRole('checkbox', { name: 'transaction.authorized' })).not.toBeChecked();
  // Nothing chosen: the service asks for a type.
  await every.uncheck();
  await url.fill('https://shop.example/hooks');
  await form.getByRole('button', { name: 'Agregar endpoint' }).click();
  await expect(form.getByText('Elige todos los eventos o al menos un tipo.')).toBeVisible();
  expect(await operatorConsole().webhooks.endpoints.query({ merchantCode: merchant.code })).toEqual([]);

  await form.getByRole('checkbox', { name: 'transaction.authorized' }).check();
  await form.getByRole('checkbox', { name: 'refund.resolved' }).check();
  await form.getByRole('button', { name: 'Agregar endpoint' }).click();
  await expect(page.getByTestId('webhook-secret')).toContainText('Endpoint https://shop.example/hooks agregado.');
  await expect(form.getByRole('alert')).toHaveCount(0);
  await expect(url).not.toHaveAttribute('aria-invalid', 'true');
  const row = endpointRow(page, 'https://shop.example/hooks');
  await expect(row).toContainText('transaction.authorized');
  await expect(row).toContainText('refund.resolved');
  await expect(row).not.toContainText('Todos los eventos');
  const stored = await operatorConsole().webhooks.endpoints.query({ merchantCode: merchant.code });
  expect(stored.map((item) => item.eventTypes)).toEqual([['transaction.authorized', 'refund.resolved']]);
  await row.getByRole('button', { name: 'Eliminar https://shop.example/hooks' }).click();
  await expect(row.getByRole('alertdialog')).toBeVisible();
  await expectAccessibleSection(page);
});

test('a viewer and support see the endpoints without forms or buttons', async ({ page, browser }) => {
  const merchant = await createMerchant('WHKVIEW');
  const viewer = await createConsoleUser('MERCHANT_VIEWER', merchant.code);
  await operatorConsole().webhooks.create.mutate({
    merchantCode: merchant.code,
    url: 'https://shop.example/viewer-hooks',
    eventTypes: ['transaction.authorized'],
    description: 'Solo autorizaciones',
  });
  await signIn(page, viewer.email, '/developers', viewer.password);
  const row = endpointRow(page, 'https://shop.example/viewer-hooks');
  await expect(row).toContainText('Solo autorizaciones');
  await expect(row).toContainText('transaction.authorized');
  await expect(row.getByTestId('webhook-state')).toHaveText('Activo');
  const section = page.getByRole('region', { name: 'Endpoints de webhooks' });
  await expect(section.getByRole('form')).toHaveCount(0);
  await expect(section.getByRole('button')).toHaveCount(0);
  await expect(section.getByRole('textbox')).toHaveCount(0);
  await expect(section.getByText('Solo los administradores pueden agregar o cambiar endpoints.')).toBeVisible();
  const refused = await callProcedure(page, 'console.webhooks.create', { url: 'https://shop.example/other', eventTypes: ['*'] });
  expect(refused.status).toBe(403);
  expect(await operatorConsole().webhooks.endpoints.query({ merchantCode: merchant.code })).toHaveLength(1);
  await expectPhoneWidth(page);

  const support = await (await browser.newContext({ baseURL: ORIGIN })).newPage();
  await signIn(support, 'support@demo.pe', `/developers?merchant=${merchant.code}`);
  await expect(endpointRow(support, 'https://shop.example/viewer-hooks')).toContainText('Solo autorizaciones');
  const supportSection = support.getByRole('region', { name: 'Endpoints de webhooks' });
  await expect(supportSection.getByRole('form')).toHaveCount(0);
  await expect(supportSection.getByRole('button')).toHaveCount(0);
});
