import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { charge, chargeBody, operationNumber, tokenFor, type MethodName } from './api';

// Console helpers shared by the console specs: the demo users and merchant, sign-in, a demo charge.
export const DEMO_PASSWORD = 'demo-password-1';
export const DEMO = { code: 'DEMO001', clientId: 'demo-client', clientSecret: 'demo-secret-change-me-0001' };

/** Signs in through the login page (reached by visiting a guarded path) and lands on that path. */
export async function signIn(page: Page, email: string, path = '/operations', password = DEMO_PASSWORD): Promise<void> {
  await page.goto(path);
  await expect(page).toHaveURL(new RegExp(`/login\\?callbackUrl=${escapeRegExp(encodeURIComponent(path))}`));
  await page.getByLabel('Correo / Email').fill(email);
  await page.getByLabel('Contraseña / Password').fill(password);
  await page.getByRole('button', { name: 'Ingresar / Sign in' }).click();
  // Signing in runs scrypt and a full page load: slow on a busy machine.
  await expect(page).toHaveURL(new RegExp(`${escapeRegExp(path)}$`), { timeout: 20_000 });
  await expect(page.getByTestId('signed-in-as')).toContainText(email);
}

/**
 * A charge of the demo merchant through the REST API (operation number `<prefix>-…`): its
 * operation number, transaction id and, for redirect methods, the payer page.
 */
export async function demoCharge(request: APIRequestContext, method: MethodName, prefix = `con-${method.toLowerCase()}`) {
  const token = await tokenFor(request, DEMO);
  const number = operationNumber(prefix);
  const response = await charge(request, token, chargeBody(DEMO.code, number, method));
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { transaction: { transaction_id: string; continue_url?: string } };
  return { number, transactionId: body.transaction.transaction_id, continueUrl: body.transaction.continue_url };
}

/** The HTTP status of a console procedure called from the page, with its session cookie (as a script would). */
export async function procedureStatus(page: Page, procedure: string, input: unknown, kind: 'mutation' | 'query' = 'mutation') {
  return page.evaluate(
    async ({ procedure, input, kind }) => {
      const url = `/api/trpc/${procedure}`;
      const response =
        kind === 'query'
          ? await fetch(`${url}?input=${encodeURIComponent(JSON.stringify(input))}`)
          : await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(input) });
      return response.status;
    },
    { procedure, input, kind },
  );
}

/** Clicks the header's language button once React has hydrated it (a click before that does nothing). */
export async function switchLanguage(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const button = document.querySelector('[data-testid="lang-switch"]');
    return button !== null && Object.keys(button).some((key) => key.startsWith('__reactProps'));
  });
  await page.getByTestId('lang-switch').click();
}

/** At a 375 px phone width the page scrolls only vertically (wide tables scroll inside their frame). */
export async function expectPhoneWidth(page: Page): Promise<void> {
  await page.setViewportSize({ width: 375, height: 800 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
