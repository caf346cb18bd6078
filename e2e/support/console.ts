import { readFileSync } from 'node:fs';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { charge, chargeBody, operationNumber, tokenFor } from './api';
import { createMerchant, operator, type TestMerchant } from './service';

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

/** A charge through the REST API (the demo merchant's unless told): its operation number and transaction id. */
export async function demoCharge(
  request: APIRequestContext,
  method: 'CARD' | 'QR',
  options: {
    merchant?: TestMerchant;
    number?: string;
    customer?: Record<string, unknown>;
    details?: Record<string, unknown>;
  } = {},
) {
  const merchant = options.merchant ?? DEMO;
  const token = await tokenFor(request, merchant);
  const number = options.number ?? operationNumber(`con-${method.toLowerCase()}`);
  const body = chargeBody(merchant.code, number, method, { customer: options.customer, details: options.details });
  const response = await charge(request, token, body);
  expect(response.status()).toBe(200);
  const reply = (await response.json()) as { transaction: { transaction_id: string; state: string } };
  return { number, transactionId: reply.transaction.transaction_id, state: reply.transaction.state };
}

/** A merchant of the test's own with a console user of the given role (password DEMO_PASSWORD). */
export async function merchantWithUser(prefix: string, role: 'MERCHANT_ADMIN' | 'MERCHANT_VIEWER' = 'MERCHANT_ADMIN') {
  const merchant = await createMerchant(prefix);
  const email = `${merchant.code.toLowerCase()}@test.pe`;
  await operator().createUser.mutate({ email, password: DEMO_PASSWORD, role, merchantCode: merchant.code });
  return { merchant, email };
}

/** Clicks a link that downloads a file; its suggested name and its bytes. */
export async function download(page: Page, link: Locator): Promise<{ filename: string; bytes: Buffer }> {
  const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
  return { filename: file.suggestedFilename(), bytes: readFileSync(await file.path()) };
}

/** A console procedure called from the signed-in page with its session cookie: status and body. */
export async function callProcedure(page: Page, procedure: string, input: unknown) {
  return page.evaluate(
    async ([path, body]) => {
      const response = await fetch(`/api/trpc/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as unknown };
    },
    [procedure, input] as const,
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
