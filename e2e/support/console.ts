import { readFileSync } from 'node:fs';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { charge, chargeBody, operationNumber, tokenFor, type MethodName } from './api-client';
import type { TestMerchant } from './service';

// Console helpers shared by the console specs: the demo users and merchant, sign-in, a demo charge.
export const DEMO_PASSWORD = 'demo-password-1';
export const DEMO = { code: 'DEMO001', clientId: 'demo-client', clientSecret: 'demo-secret-change-me-0001' };

/** Signs in through the login page (reached by visiting a guarded path) and lands on that path. */
export async function signIn(page: Page, email: string, path = '/operations', password = DEMO_PASSWORD): Promise<void> {
  await page.goto(path);
  await expect(page).toHaveURL(new RegExp(`/login\\?callbackUrl=${escapeRegExp(encodeURIComponent(path))}`));
  await page.getByLabel('Correo', { exact: true }).fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Ingresar', exact: true }).click();
  // Signing in runs scrypt and a full page load: slow on a busy machine.
  await expect(page).toHaveURL(new RegExp(`${escapeRegExp(path)}$`), { timeout: 20_000 });
  await expect(page.getByTestId('signed-in-as')).toContainText(email);
}

/**
 * A charge through the REST API (the demo merchant's unless told; operation number
 * `<prefix>-…` unless given): its operation number, transaction id, state and, for redirect
 * methods, the payer page.
 */
export async function demoCharge(
  request: APIRequestContext,
  method: MethodName,
  options: {
    merchant?: TestMerchant;
    number?: string;
    prefix?: string;
    customer?: Record<string, unknown>;
    details?: Record<string, unknown>;
  } = {},
) {
  const merchant = options.merchant ?? DEMO;
  const token = await tokenFor(request, merchant);
  const number = options.number ?? operationNumber(options.prefix ?? `con-${method.toLowerCase()}`);
  const body = chargeBody(merchant.code, number, method, { customer: options.customer, details: options.details });
  const response = await charge(request, token, body);
  expect(response.status()).toBe(200);
  const reply = (await response.json()) as { transaction: { transaction_id: string; state: string; continue_url?: string } };
  return {
    number,
    transactionId: reply.transaction.transaction_id,
    state: reply.transaction.state,
    continueUrl: reply.transaction.continue_url,
  };
}

/** A console procedure called from the signed-in page with its session cookie (as a script would): status and body. */
export async function callProcedure(page: Page, procedure: string, input: unknown, kind: 'mutation' | 'query' = 'mutation') {
  return page.evaluate(
    async ({ procedure, input, kind }) => {
      const url = `/api/trpc/${procedure}`;
      const response =
        kind === 'query'
          ? await fetch(`${url}?input=${encodeURIComponent(JSON.stringify(input))}`)
          : await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(input) });
      return { status: response.status, body: (await response.json()) as unknown };
    },
    { procedure, input, kind },
  );
}

/** The HTTP status of a console procedure called from the page (see callProcedure). */
export async function procedureStatus(page: Page, procedure: string, input: unknown, kind: 'mutation' | 'query' = 'mutation') {
  return (await callProcedure(page, procedure, input, kind)).status;
}

/** Clicks a button once React has hydrated it: a click on the server's HTML before that does nothing. */
export async function clickHydrated(button: Locator): Promise<void> {
  await expect
    .poll(() => button.evaluate((element) => Object.keys(element).some((key) => key.startsWith('__reactProps'))))
    .toBe(true);
  await button.click();
}

/** Clicks the header's language button (once hydrated) and waits for the page in the other language. */
export async function switchLanguage(page: Page): Promise<void> {
  const button = page.getByTestId('lang-switch');
  const before = await button.textContent();
  await clickHydrated(button);
  // The switch names the other language: it changes once the page has rendered again on the
  // server, which can take a while on a loaded machine.
  await expect(button).not.toHaveText(before ?? '', { timeout: 20_000 });
}

/** At a 375 px phone width the page scrolls only vertically (wide tables scroll inside their frame). */
export async function expectPhoneWidth(page: Page): Promise<void> {
  await page.setViewportSize({ width: 375, height: 800 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
}

/** Clicks a link that downloads a file; its suggested name and its bytes. */
export async function download(page: Page, link: Locator): Promise<{ filename: string; bytes: Buffer }> {
  const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
  return { filename: file.suggestedFilename(), bytes: readFileSync(await file.path()) };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
