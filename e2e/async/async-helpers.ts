import { createPublicKey, verify } from 'node:crypto';
import { type APIRequestContext } from '@playwright/test';
import { test as base, expect } from '../support/contract';
import { apiClient, chargeBody, type MethodName } from '../support/api-client';
import type {
  ChargeReply,
  LifecycleEntry,
  OperationObject,
  RefundList,
  RefundObject,
  TimeObject,
  TransactionObject,
} from '../support/api-types';
import { MILLIS_UTC, SECONDS_UTC, UUID } from '../support/patterns';
import { startReceiver, type ReceivedCallback, type Receiver } from '../support/receiver';
import { ASYNC_ORIGIN, ASYNC_PORT, createMerchant, operator, storedOperation, type TestMerchant } from '../support/service';

// Shared helpers of the asynchronous suite (e2e/async): everything runs against the service with
// short delays (playwright.config.ts: WORKER_POLL_MS 100, SETTLEMENT_DELAY_SECONDS 3,
// REFUND_PROCESSING_DELAY_SECONDS 1, CALLBACK_RETRY_SECONDS 1,1,1, CALLBACK_TIMEOUT_MS 3000).

export const API = `${ASYNC_ORIGIN}/api`;
/** The merchant API of the asynchronous service. */
export const { tokenFor, postCharge, getTransaction, cancel, postRefund, listRefunds } = apiClient(ASYNC_ORIGIN);
export const SETTLEMENT_DELAY_MS = 3_000;
export const REFUND_DELAY_MS = 1_000;
export const CALLBACK_TIMEOUT_MS = 3_000;
/** Retry delay of 1 s with ±10 % jitter. */
export const RETRY_MIN_MS = 900;

export const PAYER_URL = new RegExp(`^${ASYNC_ORIGIN.replace(/[.]/g, '\\.')}/pay/[A-Za-z0-9_-]{16,64}$`);

// ---------------------------------------------------------------------------------------------
// Shapes

/** What the operator's inspectOperation returns (services/admin/inspect-operation.ts). */
export type StoredDelivery = {
  number: number;
  startedAt: string;
  latencyMs: number;
  statusCode: number | null;
  error: string | null;
  responseSnippet: string;
  manual: boolean;
};
export type StoredEvent = {
  id: string;
  type: string;
  aggregateId: string;
  status: string;
  callbackUrl: string | null;
  attempts: number;
  nextAttemptAt: string;
  deliveredAt: string | null;
  lastError: string | null;
  createdAt: string;
  payload: Record<string, unknown>;
  deliveries: StoredDelivery[];
};
export type StoredRow = Record<string, unknown> & {
  id: string;
  state: string;
  attempt: number;
  lifecycle: { state: string; at: string }[];
};
export type Inspected = {
  id: string;
  merchantOperationNumber: string;
  transactions: StoredRow[];
  refunds: StoredRow[];
  events: StoredEvent[];
};

// ---------------------------------------------------------------------------------------------
// Waiting: every wait polls with a deadline.

export async function until<T>(
  label: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 10_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await read();
  while (!done(last)) {
    if (Date.now() > deadline) {
      throw new Error(`${label}: not reached within ${timeoutMs} ms; last seen ${JSON.stringify(last).slice(0, 1500)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    last = await read();
  }
  return last;
}

// ---------------------------------------------------------------------------------------------
// The merchant's side: credentials, API calls

export type Actor = { merchant: TestMerchant; token: string };

/** A merchant of its own on the asynchronous service, with a token for every scope. */
export async function asyncActor(request: APIRequestContext, prefix: string): Promise<Actor> {
  const merchant = await createMerchant(prefix, undefined, { port: ASYNC_PORT });
  return { merchant, token: await tokenFor(request, merchant) };
}

export function asyncOperator() {
  return operator(ASYNC_PORT);
}

/** A charge body whose method_details are exactly the method's defaults plus `details` (undefined drops a field). */
export function bodyFor(
  merchantCode: string,
  number: string,
  method: MethodName,
  details: Record<string, unknown> = {},
  options: { amount?: string } = {},
) {
  const body = chargeBody(merchantCode, number, method, { amount: options.amount, details });
  const cleaned = Object.fromEntries(
    Object.entries(body.payment_method.method_details).filter(([, value]) => value !== undefined),
  );
  return { ...body, payment_method: { method_name: method, method_details: cleaned } };
}

/** A charge that must succeed (200) in the given state. */
export async function chargeOk(
  request: APIRequestContext,
  token: string,
  body: object,
  state: 'AUTORIZADO' | 'PENDIENTE',
): Promise<ChargeReply> {
  const { status, body: answer, text } = await postCharge(request, token, body);
  expect(status, text).toBe(200);
  expect(answer.transaction.state, text).toBe(state);
  return answer;
}

/** The queried transaction (200 required). */
export async function queryTransaction(
  request: APIRequestContext,
  token: string,
  merchantCode: string,
  number: string,
  transactionId: string,
): Promise<{ operation: OperationObject; transaction: TransactionObject }> {
  const { status, body, text } = await getTransaction(request, token, merchantCode, number, transactionId);
  expect(status, text).toBe(200);
  const transaction = body.operation.transactions.find((item) => item.transaction_id === transactionId);
  expect(transaction, text).toBeDefined();
  return { operation: body.operation, transaction: transaction! };
}

export async function waitForState(
  request: APIRequestContext,
  token: string,
  merchantCode: string,
  number: string,
  transactionId: string,
  state: string,
  timeoutMs = 10_000,
): Promise<{ operation: OperationObject; transaction: TransactionObject }> {
  return until(
    `transaction ${transactionId} in ${state}`,
    () => queryTransaction(request, token, merchantCode, number, transactionId),
    (value) => value.transaction.state === state,
    timeoutMs,
  );
}

/** Polls GET /refund/{m}/{o} until the refund is in `state`; returns it and every state seen on the way. */
export async function followRefund(
  request: APIRequestContext,
  token: string,
  merchantCode: string,
  number: string,
  refundId: string,
  state: string,
  timeoutMs = 8_000,
): Promise<{ refund: RefundObject; list: RefundList; seen: string[] }> {
  const seen: string[] = [];
  const list = await until(
    `refund ${refundId} in ${state}`,
    async () => {
      const { status, body, text } = await listRefunds(request, token, merchantCode, number);
      expect(status, text).toBe(200);
      const current = body.operations.find((item) => item.refund_id === refundId)?.state ?? 'MISSING';
      if (seen.at(-1) !== current) seen.push(current);
      return body;
    },
    (body) => body.operations.find((item) => item.refund_id === refundId)?.state === state,
    timeoutMs,
    50,
  );
  return { refund: list.operations.find((item) => item.refund_id === refundId)!, list, seen };
}

// ---------------------------------------------------------------------------------------------
// Stored rows (the operator's view)

export async function inspect(merchantCode: string, number: string): Promise<Inspected> {
  return (await storedOperation(merchantCode, number, ASYNC_PORT)) as unknown as Inspected;
}

export async function waitForStored(
  label: string,
  merchantCode: string,
  number: string,
  done: (stored: Inspected) => boolean,
  timeoutMs = 10_000,
): Promise<Inspected> {
  return until(label, () => inspect(merchantCode, number), done, timeoutMs, 150);
}

export function storedEvent(stored: Inspected, type: string, aggregateId?: string): StoredEvent {
  const found = stored.events.filter((event) => event.type === type && (!aggregateId || event.aggregateId === aggregateId));
  expect(
    found.map((event) => event.type),
    `one stored ${type} event`,
  ).toEqual([type]);
  return found[0]!;
}

/** The stored deliveries without their timing (exact fields only). */
export function deliveryOutcomes(event: StoredEvent) {
  return event.deliveries.map(({ number, statusCode, error, responseSnippet, manual }) => ({
    number,
    statusCode,
    error,
    responseSnippet,
    manual,
  }));
}

// ---------------------------------------------------------------------------------------------
// Time

/** Milliseconds of a time object's utc_time (with or without fraction and Z). */
export function msOf(time: TimeObject | string): number {
  const text = typeof time === 'string' ? time : time.utc_time;
  return Date.parse(text.endsWith('Z') ? text : `${text}Z`);
}

export function entryOf(lifecycle: LifecycleEntry[], state: string): LifecycleEntry {
  const entry = lifecycle.find((item) => item.state === state);
  expect(entry, `lifecycle entry ${state} in ${JSON.stringify(lifecycle)}`).toBeDefined();
  return entry!;
}

export function states(lifecycle: { state: string }[]): string[] {
  return lifecycle.map((entry) => entry.state);
}

/** Every time object is consistent: utc_time in the given format, unix_time its seconds. */
export function expectTimes(lifecycle: LifecycleEntry[], style: 'millis' | 'seconds'): void {
  for (const entry of lifecycle) {
    expect(entry.date.utc_time).toMatch(style === 'millis' ? MILLIS_UTC : SECONDS_UTC);
    expect(entry.date.unix_time).toBe(Math.floor(msOf(entry.date) / 1000));
  }
  const times = lifecycle.map((entry) => msOf(entry.date));
  expect(times).toEqual([...times].sort((a, b) => a - b));
}

// ---------------------------------------------------------------------------------------------
// Callbacks

export const CALLBACK_KEYS = [
  'action',
  'event_id',
  'event_type',
  'merchant_code',
  'merchant_operation_number',
  'success',
] as const;

let cachedPem: string | undefined;

/** The public key of callback signatures (GET {base_url}/webhooks/public-key, no auth). */
export async function callbackPublicKey(request: APIRequestContext): Promise<string> {
  if (cachedPem) return cachedPem;
  const response = await request.get(`${API}/webhooks/public-key`);
  expect(response.status()).toBe(200);
  cachedPem = await response.text();
  return cachedPem;
}

export function verifies(body: string | Buffer, signature: string, pem: string): boolean {
  return verify(
    'sha512',
    typeof body === 'string' ? Buffer.from(body) : body,
    createPublicKey(pem),
    Buffer.from(signature, 'base64'),
  );
}

/**
 * The callback's signature header verifies over its raw bytes, and does not once one byte
 * changes; its timestamp signature covers the event id, the attempt's time (within a minute of
 * its arrival) and the body.
 */
export function expectSigned(callback: ReceivedCallback, pem: string): void {
  expect(callback.signature, `signature header of ${callback.eventId}`).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
  expect(verifies(callback.body, callback.signature, pem), `signature of ${String(callback.json.event_type)}`).toBe(true);
  const tampered = Buffer.from(callback.body);
  const at = Math.floor(tampered.length / 2);
  tampered[at] = tampered[at]! ^ 0x01;
  expect(verifies(tampered, callback.signature, pem)).toBe(false);
  const timestamp = Number(callback.headers['signature-timestamp']);
  expect(Math.abs(timestamp * 1000 - callback.at)).toBeLessThan(60_000);
  const signed = `${callback.eventId}.${timestamp}.${callback.body}`;
  expect(verifies(signed, callback.headers['timestamp-signature'] ?? '', pem)).toBe(true);
  expect(
    verifies(`${callback.eventId}.${timestamp - 600}.${callback.body}`, callback.headers['timestamp-signature'] ?? '', pem),
  ).toBe(false);
}

/** The envelope written by eventOf (services/state-moves/event-of.ts): docs/DESIGN.md 9. */
export function expectEnvelope(
  callback: ReceivedCallback,
  expected: { merchantCode: string; number: string; type: string; object: 'transaction' | 'refund' },
): void {
  const json = callback.json;
  const keys = Object.keys(json)
    .filter((key) => key !== 'meta')
    .sort();
  expect(keys).toEqual([...CALLBACK_KEYS, expected.object].sort());
  expect(json).toMatchObject({
    success: 'true',
    action: 'notify',
    merchant_code: expected.merchantCode,
    merchant_operation_number: expected.number,
    event_type: expected.type,
  });
  expect(json.event_id).toEqual(expect.stringMatching(UUID));
  expect(callback.eventId, 'x-event-id header is the body event_id').toBe(json.event_id);
}

export function transactionOf(callback: ReceivedCallback): TransactionObject {
  return callback.json.transaction as TransactionObject;
}

export function refundOf(callback: ReceivedCallback): RefundObject {
  return callback.json.refund as RefundObject;
}

export function atPath(receiver: Receiver, path: string): ReceivedCallback[] {
  return receiver.received.filter((callback) => callback.path === path);
}

/** The first arrival of each event at a path, in arrival order. */
export function firstArrivals(receiver: Receiver, path: string): ReceivedCallback[] {
  const seen = new Set<string>();
  return atPath(receiver, path).filter((callback) => {
    const id = String(callback.json.event_id);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

export function eventTypes(callbacks: ReceivedCallback[]): string[] {
  return callbacks.map((callback) => String(callback.json.event_type));
}

/**
 * Waits until the path received that many events, and checks that the first ones are exactly these
 * types in this order (a later move may already have been announced; the stored events pin the total).
 */
export async function waitForEvents(
  receiver: Receiver,
  path: string,
  types: string[],
  timeoutMs = 10_000,
): Promise<ReceivedCallback[]> {
  await receiver.waitFor(() => firstArrivals(receiver, path).length >= types.length, timeoutMs);
  const arrivals = firstArrivals(receiver, path).slice(0, types.length);
  expect(eventTypes(arrivals), `event types at ${path}`).toEqual(types);
  return arrivals;
}

// ---------------------------------------------------------------------------------------------
// The payer's side: hosted pages

export type PayerAnswer = { status: number; location: string };

/** POST of a payer-page form (pay or abandon), without following the 303. */
export async function payerPost(
  request: APIRequestContext,
  payerUrl: string,
  action: 'pay' | 'abandon',
  form: Record<string, string> = {},
): Promise<PayerAnswer> {
  const response = await request.post(`${payerUrl}/${action}`, { form, maxRedirects: 0 });
  return { status: response.status(), location: response.headers().location ?? '' };
}

/** Where the payer page itself sends a payer back (no redirect_url, or nothing moved). */
export function pageUrl(payerUrl: string, lang = 'es'): string {
  return `${payerUrl}?lang=${lang}`;
}

/** The hosted payer page of a pending charge: continue_url, cip_url, or the sandbox QR's simulated-payment page. */
export function payerUrlOf(transaction: TransactionObject): string {
  const method = transaction.payment_method.method_name;
  const processor = transaction.processor_response ?? ({} as Record<string, unknown>);
  const url =
    method === 'BANK_TRANSFER' || method === 'CUOTEALO'
      ? transaction.continue_url
      : method === 'PAGOEFECTIVO'
        ? (processor.cip_url as string | undefined)
        : (transaction.additional_fields?.sandbox as { pay_url?: string } | undefined)?.pay_url;
  expect(url, `payer page URL of ${method}`).toEqual(expect.stringMatching(PAYER_URL));
  return url!;
}

// ---------------------------------------------------------------------------------------------
// Fixtures: a loopback receiver per test, and delivery figures printed for the report.

type DeliveryFigures = { events: number; arrivals: number; retries: number; firstAttemptLatenciesMs: number[] };

/** Events received, retries, and lifecycle date (of the move a transaction event announces) to first arrival. */
export function deliveryFigures(received: ReceivedCallback[]): DeliveryFigures {
  const first = new Map<string, ReceivedCallback>();
  for (const callback of received) {
    const id = String(callback.json.event_id);
    if (!first.has(id)) first.set(id, callback);
  }
  const latencies: number[] = [];
  for (const callback of first.values()) {
    const transaction = callback.json.transaction as TransactionObject | undefined;
    const last = transaction?.lifecycle?.at(-1);
    if (last) latencies.push(callback.at - msOf(last.date));
  }
  return {
    events: first.size,
    arrivals: received.length,
    retries: received.length - first.size,
    firstAttemptLatenciesMs: latencies,
  };
}

export const test = base.extend<{ receiver: Receiver; pem: string }>({
  receiver: async ({}, use, testInfo) => {
    const receiver = await startReceiver();
    await use(receiver);
    const figures = deliveryFigures(receiver.received);
    if (figures.arrivals > 0) {
      console.log(`[async-figures] ${JSON.stringify({ test: testInfo.title, ...figures })}`);
    }
    await receiver.close();
  },
  pem: async ({ request }, use) => {
    await use(await callbackPublicKey(request));
  },
});

export { expect };
