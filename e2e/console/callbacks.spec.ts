import { test as base, expect } from '@playwright/test';
import { operationNumber } from '../support/api-client';
import { callProcedure, clickHydrated, demoCharge, signIn } from '../support/console';
import { startReceiver, type Receiver } from '../support/receiver';
import { createMerchant, storedOperation } from '../support/service';

// Callbacks in the console: every attempt on the operation's page, the manual resend (admins
// only), and the delivery log on /developers. The API suite's service has production retry
// delays, but its worker (polling every 500 ms) makes each first delivery at once, which is all
// these tests need; retries are covered by the asynchronous suite.
const test = base.extend<{ receiver: Receiver }>({
  receiver: async ({}, use) => {
    const receiver = await startReceiver();
    await use(receiver);
    await receiver.close();
  },
});

const TYPES = ['transaction.registered', 'transaction.pending', 'transaction.authorized'];

/** A demo card charge whose three events the receiver has got. */
async function deliveredCharge(request: Parameters<typeof demoCharge>[0], receiver: Receiver, path: string) {
  const charged = await demoCharge(request, 'CARD', { details: { callback_url: receiver.url(path) } });
  await receiver.waitFor((received) => received.filter((callback) => callback.path === path).length >= 3);
  return charged;
}

test('an admin resends a callback from the operation page and sees the manual attempt', async ({
  page,
  request,
  receiver,
}, testInfo) => {
  const charged = await deliveredCharge(request, receiver, '/resend');
  const authorized = receiver.received.find((callback) => callback.json.event_type === 'transaction.authorized')!;
  await signIn(page, 'owner@demo.pe', `/operations/${charged.transactionId}`);
  const events = page.getByTestId('callback-event');
  await expect(events).toHaveCount(3);
  for (const [index, type] of TYPES.entries()) {
    await expect(events.nth(index)).toContainText(type);
    await expect(events.nth(index)).toContainText('Entregado');
    await expect(events.nth(index).getByTestId('callback-attempts').getByRole('listitem')).toHaveText([/^#1 · 200 · \d+ ms$/]);
  }

  await clickHydrated(page.getByRole('button', { name: 'Reenviar transaction.authorized' }));
  await expect(events.nth(2).getByRole('status')).toHaveText(/^Intento #2 \(manual\): 200 · \d+ ms$/);
  await receiver.waitFor((received) => received.length === 4);
  const again = receiver.received[3]!;
  expect([again.path, again.eventId, again.body]).toEqual(['/resend', authorized.eventId, authorized.body]);
  await expect(events.nth(2).getByTestId('callback-attempts').getByRole('listitem')).toHaveText([
    /^#1 · 200 · \d+ ms$/,
    /^#2 · 200 · \d+ ms\s*manual$/,
  ]);
  await page.screenshot({ path: testInfo.outputPath('operation-callbacks.png'), fullPage: true });
});

test('a viewer sees the callbacks without a resend button, and the procedure answers 403', async ({
  page,
  request,
  receiver,
}) => {
  const charged = await deliveredCharge(request, receiver, '/viewer');
  const stored = await storedOperation('DEMO001', charged.number);
  const event = stored.events.find((item) => item.type === 'transaction.authorized')!;
  await signIn(page, 'viewer@demo.pe', `/operations/${charged.transactionId}`);
  await expect(page.getByTestId('callback-event')).toHaveCount(3);
  await expect(page.getByRole('button', { name: /^Reenviar/ })).toHaveCount(0);
  const answer = await callProcedure(page, 'console.resendEvent', { eventId: event.id });
  expect(answer.status).toBe(403);
  expect(receiver.received).toHaveLength(3);
  const after = await storedOperation('DEMO001', charged.number);
  expect(after.events.find((item) => item.id === event.id)!.deliveries).toHaveLength(1);
});

test('a resend while the event is being delivered says so and sends nothing', async ({ page, request, receiver }) => {
  // The first delivery hangs until the worker's 10 s time-out: the event is leased meanwhile.
  receiver.respond('/slow', (attempt) => (attempt === 1 ? 'hang' : 200));
  await signIn(page, 'owner@demo.pe');
  const charged = await demoCharge(request, 'CARD', { details: { callback_url: receiver.url('/slow') } });
  await receiver.waitFor((received) => received.length === 1);
  await page.goto(`/operations/${charged.transactionId}`);
  await page.getByRole('button', { name: 'Reenviar transaction.registered' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(
    'Esta notificación se está entregando en este momento. Espera unos segundos y vuelve a intentarlo.',
  );
  expect(receiver.received).toHaveLength(1);
});

test('the delivery log lists the merchant’s callbacks with their attempts, scoped by merchant', async ({
  page,
  request,
  receiver,
}, testInfo) => {
  const ours = await deliveredCharge(request, receiver, '/log');
  const other = await createMerchant('LOGO');
  const theirs = await demoCharge(request, 'CARD', {
    merchant: other,
    number: operationNumber('logo'),
    details: { callback_url: receiver.url('/other') },
  });
  await receiver.waitFor((received) => received.filter((callback) => callback.path === '/other').length >= 3);

  await signIn(page, 'owner@demo.pe', '/developers');
  await expect(page.getByRole('heading', { name: 'Registro de entregas' })).toBeVisible();
  await page.getByLabel('Estado de entrega').selectOption('DELIVERED');
  await page.getByRole('button', { name: 'Aplicar filtros' }).click();
  await expect(page).toHaveURL(/\/developers\?status=DELIVERED$/);
  const rows = page.getByTestId('callback-event').filter({ hasText: ours.number });
  await expect(rows).toHaveCount(3);
  const host = new URL(receiver.url()).host;
  for (const [index, type] of [...TYPES].reverse().entries()) {
    await expect(rows.nth(index)).toContainText(type);
    await expect(rows.nth(index)).toContainText(host);
    await expect(rows.nth(index).getByTestId('callback-attempts')).toHaveText(/^#1 · 200 · \d+ ms$/);
    await expect(rows.nth(index).getByRole('button', { name: `Reenviar ${type}` })).toBeVisible();
  }
  await expect(page.getByText(theirs.number)).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('developers-delivery-log.png'), fullPage: true });
  await rows.first().getByRole('link', { name: ours.number }).click();
  await expect(page.getByRole('heading', { name: ours.number })).toBeVisible();

  await page.getByRole('button', { name: 'Salir' }).click();
  await expect(page).toHaveURL(/\/login/);
  await signIn(page, 'support@demo.pe', '/developers');
  await expect(page.getByRole('columnheader', { name: 'Comercio' })).toBeVisible();
  await page.getByLabel('Código de comercio').fill(other.code);
  await page.getByRole('search', { name: 'Elegir comercio' }).getByRole('button', { name: 'Aplicar filtros' }).click();
  await expect(page).toHaveURL(new RegExp(`/developers\\?merchant=${other.code}$`));
  const log = page.getByTestId('callback-event');
  await expect(log).toHaveCount(3);
  for (const index of [0, 1, 2]) await expect(log.nth(index)).toContainText(`${other.code}`);
  await expect(log.first()).toContainText(theirs.number);
  // Support reads only: no resend.
  await expect(page.getByRole('button', { name: /^Reenviar/ })).toHaveCount(0);
});
