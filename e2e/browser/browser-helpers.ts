import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';
import { apiClient, chargeBody, operationNumber, type MethodName } from '../support/api-client';
import type { TransactionObject } from '../support/api-types';
import { ASYNC_ORIGIN, ASYNC_PORT, createMerchant, operator, storedOperation, type TestMerchant } from '../support/service';

// Helpers of the browser suite: a merchant site on loopback (the redirect_url and callback_url
// of the payments), a payment created through the API of the asynchronous service, and reads
// of the stored state (API query and the operator's view of the database).

export type PayerMethod = Extract<MethodName, 'BANK_TRANSFER' | 'CUOTEALO' | 'PAGOEFECTIVO' | 'QR'>;

/** A visit of the payer's browser to the merchant site. */
export type Visit = { path: string; url: URL; at: number };

export type MerchantSite = {
  origin: string;
  url: (path: string) => string;
  visits: Visit[];
  callbacks: { path: string; body: string }[];
  close: () => Promise<void>;
};

/** The merchant's web site on loopback: `/return...` answers a small HTML page, `/callbacks` 200. */
export async function startMerchantSite(): Promise<MerchantSite> {
  const visits: Visit[] = [];
  const callbacks: { path: string; body: string }[] = [];
  let origin = '';
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', origin);
      if (request.method === 'POST') {
        callbacks.push({ path: url.pathname, body: Buffer.concat(chunks).toString('utf8') });
        response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
        return;
      }
      if (url.pathname === '/favicon.ico') {
        response.writeHead(404).end();
        return;
      }
      visits.push({ path: url.pathname, url, at: Date.now() });
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><html lang="es"><title>Tienda</title><h1>Tienda de prueba: regreso</h1></html>`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (path) => `${origin}${path}`,
    visits,
    callbacks,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type Payment = {
  merchant: TestMerchant;
  merchantName: string;
  apiToken: string;
  number: string;
  transaction: TransactionObject;
  /** continue_url (BANK_TRANSFER, CUOTEALO), cip_url (PAGOEFECTIVO) or null (QR: only in the image). */
  payerUrl: string | null;
};

/**
 * A PENDIENTE payment of the asynchronous service, of a merchant of its own. `details` are
 * merged into the method details (undefined removes one); `expirySeconds` overrides the
 * merchant's expiry for the method before the charge.
 */
const { tokenFor, postCharge, getTransaction } = apiClient(ASYNC_ORIGIN);

export async function createPayment(
  request: APIRequestContext,
  method: PayerMethod,
  options: { details?: Record<string, unknown>; expirySeconds?: number; amount?: string } = {},
): Promise<Payment> {
  const merchant = await createMerchant('BR', undefined, { port: ASYNC_PORT });
  if (options.expirySeconds !== undefined) {
    await operator(ASYNC_PORT).setExpirySeconds.mutate({
      code: merchant.code,
      expirySeconds: { [method]: options.expirySeconds },
    });
  }
  const apiToken = await tokenFor(request, merchant);
  const number = operationNumber('br');
  const body = chargeBody(merchant.code, number, method, { details: options.details, amount: options.amount });
  const { status, body: reply, text } = await postCharge(request, apiToken, body);
  expect(status, text).toBe(200);
  expect(reply.success, text).toBe('true');
  expect(reply.transaction.state, text).toBe('PENDIENTE');
  const transaction = reply.transaction;
  const processor: Record<string, unknown> = transaction.processor_response ?? {};
  const payerUrl =
    method === 'PAGOEFECTIVO' ? String(processor.cip_url) : method === 'QR' ? null : (transaction.continue_url ?? null);
  if (method !== 'QR') expect(payerUrl, text).toMatch(new RegExp(`^${escapeRegExp(ASYNC_ORIGIN)}/pay/[A-Za-z0-9_-]{16,64}$`));
  return { merchant, merchantName: `Test ${merchant.code}`, apiToken, number, transaction, payerUrl };
}

export function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The transaction as `GET /charges/{merchant}/{operation}/{transaction}` answers it now. */
export async function queryTransaction(request: APIRequestContext, payment: Payment): Promise<TransactionObject> {
  const {
    status,
    body: reply,
    text,
  } = await getTransaction(request, payment.apiToken, payment.merchant.code, payment.number, payment.transaction.transaction_id);
  expect(status, text).toBe(200);
  expect(
    reply.operation.transactions.map((item) => item.transaction_id),
    text,
  ).toEqual([payment.transaction.transaction_id]);
  return reply.operation.transactions[0]!;
}

/** The stored rows of the payment's operation (operator's view of the database). */
export async function stored(payment: Payment) {
  const operation = await storedOperation(payment.merchant.code, payment.number, ASYNC_PORT);
  expect(operation.transactions).toHaveLength(1);
  return operation.transactions[0]! as (typeof operation.transactions)[number] & { payerToken?: string | null };
}

const PAID = ['REGISTRADO', 'PENDIENTE', 'AUTORIZADO'];

/**
 * A paid transaction: exactly REGISTRADO, PENDIENTE, AUTORIZADO, or those and LIQUIDADO when the
 * settlement cut-off of the asynchronous service (3 s) has passed since; state = last entry.
 * Either way exactly one AUTORIZADO entry.
 */
export function expectPaid(states: string[], state: string) {
  const settled = [...PAID, 'LIQUIDADO'];
  expect([PAID, settled], `lifecycle ${states.join(', ')}`).toContainEqual(states);
  expect(state).toBe(states.at(-1));
  expect(states.filter((item) => item === 'AUTORIZADO')).toHaveLength(1);
}

/** `mm:ss` or `h:mm:ss` of the countdown as seconds. */
export function countdownSeconds(text: string, label: string): number {
  const match = new RegExp(`^${escapeRegExp(label)} (?:(\\d+):)?(\\d{2}):(\\d{2})$`).exec(text.trim());
  if (!match) throw new Error(`countdown "${text}" is not "${label} mm:ss"`);
  return Number(match[1] ?? 0) * 3600 + Number(match[2]) * 60 + Number(match[3]);
}

/**
 * Script errors of a page (uncaught errors, console errors) and failed loads of its own
 * resources (HTTP >= 400; the browser's automatic /favicon.ico request aside), from now on.
 */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // A failed load is logged as a console error too; the response handler names its URL.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      errors.push(`console: ${message.text()}`);
    }
  });
  page.on('response', (response) => {
    if (response.status() >= 400 && new URL(response.url()).pathname !== '/favicon.ico') {
      errors.push(`HTTP ${response.status()}: ${response.url()}`);
    }
  });
  return errors;
}

/** Callback and redirect URLs of the merchant site for a payment's method details. */
export function merchantDetails(site: MerchantSite, method: PayerMethod, returnPath = '/return'): Record<string, unknown> {
  const callback = { callback_url: site.url('/callbacks') };
  return method === 'QR' ? callback : { ...callback, redirect_url: site.url(returnPath) };
}

/** The suite's test: every test gets a merchant site of its own, closed afterwards. */
export const test = base.extend<{ site: MerchantSite }>({
  site: async ({}, use) => {
    const site = await startMerchantSite();
    await use(site);
    await site.close();
  },
});

export { expect };
