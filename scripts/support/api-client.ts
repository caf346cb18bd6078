import { readFileSync } from 'node:fs';
import { createTRPCClient, httpLink } from '@trpc/client';
import type { AppRouter } from '../../src/server/api/routers/app-router';

// The demo merchant's side of the API for scripts (benchmark, reliability tests): a token,
// charge bodies with fresh operation numbers (a test card: nothing real), the headers; and the
// operator's tRPC client (the CLI, the demo, the tests).
export const API_VERSION = '1709847567';
export const MERCHANT = 'DEMO001';
const PERSON = { first_name: 'Ana', last_name: 'Quispe', email: 'ana.quispe@example.pe' };
let sequence = 0;

/** What a charge body may change: the card (a test PAN of docs/ORCHESTRATION.md 1), the URLs, or YAPE instead of a card. */
export type ChargeExtra = {
  callback_url?: string;
  redirect_url?: string;
  pan?: string;
  yape?: boolean;
  capture?: 'manual' | 'automatic';
  /** Save the card for a customer once approved (`method_details.save_card`). */
  save_card?: {
    customer_id: string;
    reason: 'RECURRING' | 'ONE_CLICK';
    consent: { accepted_at: string; terms_version: string; max_amount?: string };
  };
  /** A saved card's charge: its `card_id` (and a one-click's security code, an MIT's initiator and reason) instead of the card. */
  saved?: { card_id: string; security_code?: string; initiator?: 'CUSTOMER' | 'MERCHANT'; reason?: 'RECURRING' };
};

export function chargeBody(run: string, { yape = false, saved, ...extra }: ChargeExtra = {}): string {
  sequence += 1;
  return JSON.stringify({
    action: 'authorize',
    channel: 'ecommerce',
    merchant_code: MERCHANT,
    merchant_operation_number: `bench-${run}-${sequence}`,
    payment_method: yape
      ? { method_name: 'YAPE', method_details: { phone: { country_code: '+51', subscriber: '987654321' }, otp: '123456' } }
      : {
          method_name: 'CARD',
          method_details: saved
            ? { ...saved, ...extra }
            : { pan: '4111111111111111', expiry_date: '1230', security_code: '123', ...extra },
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

export type Credential = { clientId: string; clientSecret: string };
const DEMO_CREDENTIAL: Credential = { clientId: 'demo-client', clientSecret: 'demo-secret-change-me-0001' };

const CHARGE_SCOPES = 'create:token post:charges get:charges delete:charges';
/** The demo credential's customer scopes too, for what saves cards. */
export const CUSTOMER_SCOPES = `${CHARGE_SCOPES} post:customers get:customers delete:customers`;

export function tokenBody(origin: string, credential: Credential = DEMO_CREDENTIAL, scope = CHARGE_SCOPES): string {
  return JSON.stringify({
    action: 'authorize',
    grant_type: 'client_credentials',
    audience: `${origin}/api/`,
    client_id: credential.clientId,
    client_secret: credential.clientSecret,
    scope,
  });
}

/** A token from the service at `origin`, for the API of `audience` (its PUBLIC_ORIGIN, when that is another address). */
export async function token(origin: string, credential?: Credential, audience = origin, scope?: string): Promise<string> {
  const response = await fetch(`${origin}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'alg-api-version': API_VERSION },
    body: tokenBody(audience, credential, scope),
  });
  if (!response.ok) throw new Error(`token: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

export function apiHeaders(bearer: string): Record<string, string> {
  return { authorization: `Bearer ${bearer}`, 'alg-api-version': API_VERSION, 'content-type': 'application/json' };
}

export type Charged = { number: string; transactionId: string };

export async function chargeOnce(origin: string, bearer: string, run: string, extra: ChargeExtra = {}): Promise<Charged> {
  const body = chargeBody(run, extra);
  const response = await fetch(`${origin}/api/charges`, { method: 'POST', headers: apiHeaders(bearer), body });
  if (!response.ok) throw new Error(`charge: ${response.status} ${await response.text()}`);
  const reply = (await response.json()) as { transaction: { transaction_id: string } };
  return {
    number: (JSON.parse(body) as { merchant_operation_number: string }).merchant_operation_number,
    transactionId: reply.transaction.transaction_id,
  };
}

const RESENDS = 5;

/**
 * fetch that resends a request refused with 503 and Retry-After (admission control, code 02) after
 * the seconds it names, as the SDK does: the operator's calls wait out a burst instead of failing.
 */
async function fetchResendingRefusals(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  for (let attempt = 0; ; attempt += 1) {
    const response = await fetch(input, init);
    // A 503 without Retry-After is not a refusal to resend (Number(null) would read it as 0).
    const header = response.headers.get('retry-after');
    const wait = header === null ? Number.NaN : Number(header);
    if (response.status !== 503 || !(wait >= 0) || attempt === RESENDS) return response;
    await response.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
  }
}

/** The operator's tRPC client of a running service at `origin`, with its operator token. */
export function operatorTrpcClient(origin: string, operatorToken: string) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({ url: `${origin}/api/trpc`, headers: { 'x-operator-token': operatorToken }, fetch: fetchResendingRefusals }),
    ],
  });
}

/** The operator's tRPC client of a running service (its token is in the service file). */
function operatorTrpc(origin: string, serviceFile: string) {
  const { operatorToken } = JSON.parse(readFileSync(serviceFile, 'utf8')) as { operatorToken: string };
  return operatorTrpcClient(origin, operatorToken);
}

/** The operator-only procedures (admin.*). */
export function operatorClient(origin: string, serviceFile: string) {
  return operatorTrpc(origin, serviceFile).admin;
}

/** The console's procedures as the operator (a platform admin): settlement, merchants, settings. */
export function operatorConsole(origin: string, serviceFile: string) {
  return operatorTrpc(origin, serviceFile).console;
}
