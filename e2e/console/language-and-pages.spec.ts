import { expect, test, type Page } from '@playwright/test';
import { demoCharge, signIn, switchLanguage } from '../support/console';
import { charge, chargeBody, operationNumber, tokenFor } from '../support/api-client';
import { DEMO } from '../support/console';

// Issue 29's faults: a real 404 for an unknown id, the pages in one language (states, methods,
// dates day first in English), the operations pagination's range and the sign-in's pending state.

const SPANISH_STATES = ['AUTORIZADO', 'LIQUIDADO', 'PENDIENTE', 'REGISTRADO', 'DENEGADO', 'CANCELADO', 'EXTORNADO', 'EXPIRADO'];

async function badgeTexts(page: Page): Promise<string[]> {
  return page.locator('main [data-state]').allTextContents();
}

test('an unknown or malformed id answers 404 with the not-found page, in the chosen language', async ({ page, request }) => {
  await signIn(page, 'owner@demo.pe');
  for (const [path, heading] of [
    ['/operations/not-a-uuid', 'No encontramos esta operación'],
    ['/operations/00000000-0000-4000-8000-000000000000', 'No encontramos esta operación'],
  ] as const) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole('heading', { name: heading })).toBeVisible();
  }
  const refund = await page.goto('/refunds/not-a-uuid');
  expect(refund?.status()).toBe(404);
  await switchLanguage(page);
  const english = await page.goto('/operations/not-a-uuid');
  expect(english?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('No encontramos esta operación');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  // A known operation still answers 200.
  const { transactionId } = await demoCharge(request, 'QR');
  expect((await page.goto(`/operations/${transactionId}`))?.status()).toBe(200);
});

test('the English console names states and methods in English, dates day first; the Spanish one no API refund states', async ({
  page,
  request,
}) => {
  const card = await demoCharge(request, 'CARD');
  await signIn(page, 'owner@demo.pe', `/operations?search=${card.number}`);
  await expect(page.getByTestId('operation-row')).toHaveCount(1);
  // Retried: the table may render again (its client code taking over) between the two reads.
  await expect(page.locator('main [data-state]')).toHaveText(['Autorizado']);
  await switchLanguage(page);
  await expect(page.getByTestId('operation-row')).toContainText('Authorized');
  await expect(page.getByTestId('operation-row')).toContainText('Card');
  const row = await page.getByTestId('operation-row').innerText();
  for (const state of SPANISH_STATES) expect(row).not.toContain(state);
  // en-PE: day before month, as Peru writes dates (not the US order).
  const cell = page.getByTestId('operation-row').locator('td').first();
  const iso = await cell.getAttribute('title');
  const day = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'America/Lima',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  }).format(new Date(iso!));
  await expect(cell).toHaveText(new RegExp(`^${day.replaceAll('/', '\\/')}`));

  await page.getByRole('link', { name: card.number }).click();
  await expect(page.getByRole('heading', { name: card.number })).toBeVisible();
  const badges = await badgeTexts(page);
  expect(badges.length).toBeGreaterThan(0);
  for (const badge of badges) expect(SPANISH_STATES).not.toContain(badge.toUpperCase());
  // The API's value beside the state, to match the merchant's logs.
  await expect(page.locator('header').getByTestId('api-value')).toHaveText('AUTORIZADO');
  await expect(page.getByTestId('state-reason').first()).toContainText('Transaction approved');
  const labels = await page.locator('main dt').allTextContents();
  expect(labels.length).toBeGreaterThan(0);
  for (const raw of ['bin', 'brand', 'last_pan', 'card_type', 'masked_pan']) expect(labels).not.toContain(raw);

  await page.goto('/refunds');
  await expect(page.locator('main h1')).toHaveText('Refunds');
  for (const badge of await badgeTexts(page)) expect(['Requested', 'In process', 'Refunded', 'Rejected']).toContain(badge);
  expect(await page.getByLabel('State').locator('option').allTextContents()).toEqual([
    'All',
    'Requested',
    'In process',
    'Refunded',
    'Rejected',
  ]);
  await switchLanguage(page);
  for (const badge of await badgeTexts(page)) expect(['Solicitado', 'En proceso', 'Reembolsado', 'Rechazado']).toContain(badge);
  expect(await page.getByLabel('Estado').locator('option').allTextContents()).toEqual([
    'Todos',
    'Solicitado',
    'En proceso',
    'Reembolsado',
    'Rechazado',
  ]);
});

test('the operations list shows its range and total, with previous and next pages', async ({ page, request }) => {
  test.setTimeout(120_000);
  const token = await tokenFor(request, DEMO);
  const prefix = operationNumber('pg').slice(0, 14);
  for (let batch = 0; batch < 3; batch += 1) {
    await Promise.all(
      Array.from({ length: 9 }, async (_, index) => {
        const response = await charge(request, token, chargeBody(DEMO.code, `${prefix}-${batch}${index}`, 'QR'));
        expect(response.status()).toBe(200);
      }),
    );
  }
  await signIn(page, 'owner@demo.pe', `/operations?search=${prefix}`);
  const range = page.getByTestId('page-range');
  await expect(range).toHaveText('1–25 de 27');
  await expect(page.getByRole('link', { name: 'Página anterior' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Siguiente página' }).click();
  await expect(range).toHaveText('26–27 de 27');
  await expect(page.getByTestId('operation-row')).toHaveCount(2);
  await expect(page.getByRole('link', { name: 'Siguiente página' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Página anterior' }).click();
  await expect(range).toHaveText('1–25 de 27');
  await expect(page.getByTestId('operation-row')).toHaveCount(25);
});

test('the sign-in page follows the language choice, and its button shows that it is signing in', async ({ page, context }) => {
  await page.goto('/operations');
  await expect(page).toHaveURL(/\/login/);
  await context.addCookies([{ name: 'console_lang', value: 'en', url: new URL(page.url()).origin }]);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Payments console' })).toBeVisible();
  await page.getByLabel('Email', { exact: true }).fill('owner@demo.pe');
  await page.getByLabel('Password', { exact: true }).fill('not-the-password');
  // Held back, the sign-in stays pending long enough to be seen.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/auth/callback/credentials**', async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const pending = page.getByRole('button', { name: 'Signing in…' });
  await expect(pending).toBeDisabled();
  await expect(pending).toHaveAttribute('aria-busy', 'true');
  await expect(page.getByTestId('sign-in-slow')).toContainText('Still working');
  release();
  await expect(page.getByText('Wrong email or password, or too many tries.')).toHaveAttribute('role', 'alert');
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeEnabled();
});
