import { readFileSync } from 'node:fs';
import { createTRPCClient, httpLink } from '@trpc/client';
import type { AppRouter } from '../../src/server/api/routers/app-router';

// What the benchmark's requests need: a token of the demo merchant, charge bodies with fresh
// operation numbers, one stored transaction to read, and settled payments with refunds to filter.
export const API_VERSION = '1709847567';
const MERCHANT = 'DEMO001';
const PERSON = { first_name: 'Ana', last_name: 'Quispe', email: 'ana.quispe@example.pe' };
let sequence = 0;

export function chargeBody(run: string): string {
  sequence += 1;
  return JSON.stringify({
    action: 'authorize',
    channel: 'ecommerce',
    merchant_code: MERCHANT,
    merchant_operation_number: `bench-${run}-${sequence}`,
    payment_method: {
      method_name: 'CARD',
      method_details: { pan: '4111111111111111', expiry_date: '1230', security_code: '123' },
    },
    payment_details: {
      amount: '15000',
      currency: '604',
      billing: PERSON,
      shipping: PERSON,
      customer: PERSON,
      product_details: [{ sku: 'SKU-1', name: 'Polo', quantity: '1', unit_amount: '15000' }],
    },
  });
}

export function tokenBody(origin: string): string {
  return JSON.stringify({
    action: 'authorize',
    grant_type: 'client_credentials',
    audience: `${origin}/api/`,
    client_id: 'demo-client',
    client_secret: 'demo-secret-change-me-0001',
    scope: 'create:token post:charges get:charges delete:charges',
  });
}

export async function token(origin: string): Promise<string> {
  const response = await fetch(`${origin}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'alg-api-version': API_VERSION },
    body: tokenBody(origin),
  });
  if (!response.ok) throw new Error(`token: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

export function apiHeaders(bearer: string): Record<string, string> {
  return { authorization: `Bearer ${bearer}`, 'alg-api-version': API_VERSION, 'content-type': 'application/json' };
}

type Charged = { number: string; transactionId: string };

async function chargeOnce(origin: string, bearer: string, run: string): Promise<Charged> {
  const body = chargeBody(run);
  const response = await fetch(`${origin}/api/charges`, { method: 'POST', headers: apiHeaders(bearer), body });
  if (!response.ok) throw new Error(`charge: ${response.status} ${await response.text()}`);
  const reply = (await response.json()) as { transaction: { transaction_id: string } };
  return {
    number: (JSON.parse(body) as { merchant_operation_number: string }).merchant_operation_number,
    transactionId: reply.transaction.transaction_id,
  };
}

/** Warms the service up with `count` charges, settles them and refunds `refunds` of them. */
export async function prepare(origin: string, serviceFile: string, bearer: string, count: number, refunds: number) {
  const charged: Charged[] = [];
  for (let index = 0; index < count; index += 1) charged.push(await chargeOnce(origin, bearer, 'warm'));
  const { operatorToken } = JSON.parse(readFileSync(serviceFile, 'utf8')) as { operatorToken: string };
  const operator = createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${origin}/api/trpc`, headers: { 'x-operator-token': operatorToken } })],
  }).admin;
  await operator.settleNow.mutate({ merchantCode: MERCHANT });
  const items = charged.slice(0, refunds).map((each) => ({
    type: 'TOTAL',
    merchant_operation_number: each.number,
    transaction_id: each.transactionId,
    refund_amount: '15000',
    additional_fields: { canal: 'web', reason: 'benchmark', description: 'benchmark refund' },
  }));
  const refunded = await fetch(`${origin}/api/refund`, {
    method: 'POST',
    headers: apiHeaders(bearer),
    body: JSON.stringify({ merchant_code: MERCHANT, operations: items }),
  });
  if (!refunded.ok) throw new Error(`refund: ${refunded.status} ${await refunded.text()}`);
  const today = new Date().toISOString().slice(0, 10);
  return {
    transactionPath: `/api/charges/${MERCHANT}/${charged[0]!.number}/${charged[0]!.transactionId}`,
    refundPath: `/api/refund?merchant_code=${MERCHANT}&state=REGISTERED&start_date=${today}&end_date=${today}`,
  };
}
