import { expect, type APIRequestContext } from '@playwright/test';
import { tokenFor } from '../support/api-client';
import type { ErrorReply, LifecycleEntry, Reply, TimeObject, TransactionObject } from '../support/api-types';
import { MILLIS_UTC, SECONDS_UTC } from '../support/patterns';
import { createMerchant, storedOperation, type StoredOperation, type TestMerchant } from '../support/service';

// Shared helpers of the charges-* specs: the time object formats of docs/DESIGN.md 7 and the
// envelope of docs/DESIGN.md 4.

export type Actor = { merchant: TestMerchant; token: string };

/** A new merchant of its own (tests stay independent) and a token with every scope. */
export async function newActor(request: APIRequestContext, prefix = 'CH'): Promise<Actor> {
  const merchant = await createMerchant(prefix);
  return { merchant, token: await tokenFor(request, merchant) };
}

/** The success meta: code `00`, messages in es-PE and en-US. */
export const SUCCESS_META = {
  status: {
    code: '00',
    message_ilgn: [
      { locale: 'es-PE', value: expect.stringMatching(/\S/) },
      { locale: 'en-US', value: expect.stringMatching(/\S/) },
    ],
  },
};

const DOCUMENTED_MESSAGES: Record<string, [string, string]> = {
  '10': ['Solicitud inválida', 'Invalid request'],
};

/** The envelope meta of an error code (exact messages where docs/DESIGN.md 4 gives them). */
export function errorMeta(code: string) {
  const documented = DOCUMENTED_MESSAGES[code];
  return {
    status: {
      code,
      message_ilgn: [
        { locale: 'es-PE', value: documented ? documented[0] : expect.stringMatching(/\S/) },
        { locale: 'en-US', value: documented ? documented[1] : expect.stringMatching(/\S/) },
      ],
    },
  };
}

/** Asserts the whole error envelope: status, `success` of the endpoint's type, meta, errors list. */
export function expectError(result: Reply<unknown>, status: number, code: string, successType: 'string' | 'boolean') {
  expect(result.status, result.text).toBe(status);
  const body = result.body as ErrorReply;
  expect(Object.keys(body).sort()).toEqual(['errors', 'meta', 'success']);
  expect(body.success).toBe(successType === 'string' ? 'false' : false);
  expect(body.meta).toEqual(errorMeta(code));
  expect(Array.isArray(body.errors)).toBe(true);
  for (const error of body.errors) {
    expect(typeof error.code).toBe('string');
    expect(typeof error.message).toBe('string');
  }
  return body;
}

/** A time object in the given style, whose unix_time is the seconds of utc_time. */
export function expectTimeObject(value: unknown, style: 'millis' | 'seconds'): TimeObject {
  const time = value as TimeObject;
  expect(Object.keys(time).sort()).toEqual(['unix_time', 'utc_time']);
  expect(time.utc_time).toMatch(style === 'millis' ? MILLIS_UTC : SECONDS_UTC);
  expect(Number.isInteger(time.unix_time)).toBe(true);
  expect(time.unix_time).toBe(Math.floor(instantOf(time) / 1000));
  return time;
}

/** Milliseconds of a time object's utc_time (read as UTC in both styles). */
export function instantOf(time: TimeObject): number {
  return Date.parse(time.utc_time.endsWith('Z') ? time.utc_time : `${time.utc_time}Z`);
}

/**
 * Asserts a lifecycle: exactly these states in this order, every date in the style, in
 * chronological order and inside [from, to] (milliseconds; seconds style rounds down).
 */
export function expectLifecycle(
  lifecycle: LifecycleEntry[],
  states: string[],
  style: 'millis' | 'seconds',
  window?: { from: number; to: number },
) {
  expect(lifecycle.map((entry) => entry.state)).toEqual(states);
  let previous = -Infinity;
  for (const entry of lifecycle) {
    expect(Object.keys(entry).sort()).toEqual(['date', 'state']);
    expectTimeObject(entry.date, style);
    const at = instantOf(entry.date);
    expect(at).toBeGreaterThanOrEqual(previous);
    previous = at;
    if (window) {
      const slack = style === 'seconds' ? 1000 : 0;
      expect(at).toBeGreaterThanOrEqual(window.from - slack - 5);
      expect(at).toBeLessThanOrEqual(window.to + 5);
    }
  }
}

export function expectSuccessMeta(meta: unknown) {
  expect(meta).toEqual(SUCCESS_META);
}

/** The time object of a lifecycle entry written to seconds (what cancellation bodies show). */
export function toSeconds(time: TimeObject): TimeObject {
  return { utc_time: time.utc_time.slice(0, 19), unix_time: time.unix_time };
}

/** The operation's stored rows; rejects when the operation does not exist. */
export async function stored(merchantCode: string, merchantOperationNumber: string): Promise<StoredOperation> {
  return storedOperation(merchantCode, merchantOperationNumber);
}

/** Asserts that no operation was stored under this number. */
export async function expectNothingStored(merchantCode: string, merchantOperationNumber: string) {
  await expect(storedOperation(merchantCode, merchantOperationNumber)).rejects.toThrow(/no such operation|not found/i);
}

/** Event types of one aggregate, sorted (events of one move share their creation instant). */
export function eventTypesOf(operation: { events: { type: string; aggregateId: string }[] }, aggregateId: string): string[] {
  return operation.events
    .filter((event) => event.aggregateId === aggregateId)
    .map((event) => event.type)
    .sort();
}

/** The sandbox expiry of a pending method (docs/DESIGN.md 8), in seconds. */
export const PENDING_EXPIRY_SECONDS = {
  BANK_TRANSFER: 30 * 60,
  CUOTEALO: 60 * 60,
  PAGOEFECTIVO: 24 * 60 * 60,
  QR: 15 * 60,
} as const;

/** Asserts expiration_date is `seconds` after the PENDIENTE entry (±2 s). */
export function expectExpiry(transaction: TransactionObject, seconds: number) {
  const expiry = expectTimeObject(transaction.expiration_date, 'millis');
  const pending = transaction.lifecycle.find((entry) => entry.state === 'PENDIENTE');
  expect(pending).toBeDefined();
  const delta = instantOf(expiry) - instantOf(pending!.date);
  expect(Math.abs(delta - seconds * 1000)).toBeLessThanOrEqual(2000);
}

/** Asserts that `text` never contains `secret` as a standalone run of digits. */
export function expectNoDigits(text: string, secret: string) {
  expect(new RegExp(`(?<![0-9])${secret}(?![0-9])`).test(text), `the body echoes ${secret}: ${text}`).toBe(false);
}

/**
 * The stored rows that a refused or replayed request must leave alone: operation, transactions
 * (with lifecycle and updatedAt) and which events exist. Delivery fields of events (status,
 * attempts) are left out: an outbox dispatcher may change them at any time.
 */
export async function snapshot(merchantCode: string, merchantOperationNumber: string) {
  const operation = await storedOperation(merchantCode, merchantOperationNumber);
  return {
    ...operation,
    events: operation.events.map((event) => {
      const { id } = event as { id?: unknown };
      return { id, type: event.type, aggregateId: event.aggregateId };
    }),
  };
}
