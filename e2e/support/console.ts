import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { charge, chargeBody, operationNumber, tokenFor, type MethodName } from './api';

// Console helpers shared by the console specs: the demo users and merchant, sign-in, a demo charge.
export const DEMO_PASSWORD = 'demo-password-1';
export const DEMO = { code: 'DEMO001', clientId: 'demo-client', clientSecret: 'demo-secret-change-me-0001' };

/** Signs in through the login page (reached by visiting a guarded path) and lands on that path. */
export async function signIn(page: Page, email: string, path = '/operations'): Promise<void> {
  await page.goto(path);
  await expect(page).toHaveURL(new RegExp(`/login\\?callbackUrl=${escapeRegExp(encodeURIComponent(path))}`));
  await page.getByLabel('Correo / Email').fill(email);
  await page.getByLabel('Contraseña / Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Ingresar / Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`${escapeRegExp(path)}$`));
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

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Calls a console procedure from the page, with its session cookie (as the page's own scripts would): the HTTP status. */
export async function procedureStatus(page: Page, path: string, input: unknown, kind: 'query' | 'mutation'): Promise<number> {
  return page.evaluate(
    async ({ path, input, kind }) => {
      const response =
        kind === 'query'
          ? await fetch(`/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`)
          : await fetch(`/api/trpc/${path}`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(input),
            });
      return response.status;
    },
    { path, input, kind },
  );
}
