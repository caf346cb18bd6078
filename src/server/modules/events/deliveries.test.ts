import { describe, expect, it } from 'vitest';
import { deliverAll, webhookReceiver } from '@tests/support/webhook-receiver';
import { chargeRequest, testMerchant, withTestMerchant } from '@tests/support/procedure-test-support';
import { authorizeCharge } from '@/server/modules/charges/authorize-charge';
import { createEndpoint } from '@/server/modules/events/webhooks/webhook-endpoints';
import { deliveriesOf, listDeliveries, waitOf, type DeliveryRow } from './deliveries';

// The deliveries the console lists, on the embedded database: an operation's own callbacks and
// its events' deliveries to each webhook endpoint, each with its attempts and why it waits.

const fixture = withTestMerchant('DELIVS');
const UNRESOLVED = 'http://nonexistent.invalid';

const receiver = webhookReceiver();

const scope = () => ({ kind: 'one' as const, merchantId: fixture.merchant.id });

async function charge(number: string, callbackUrl?: string) {
  const charged = await authorizeCharge(
    fixture.db.prisma,
    fixture.merchant,
    chargeRequest(fixture.merchant.code, number, 'CARD', callbackUrl ? { callbackUrl } : {}),
  );
  return charged.transaction.transaction_id;
}

type Rows = Awaited<ReturnType<typeof deliveriesOf>>;

/** The rows with one event's endpoints by host (their order within the event is their ids'). */
const byEvent = (rows: Rows) =>
  rows
    .map((row, index) => ({ row, event: rows.findIndex((other) => other.eventId === row.eventId), index }))
    .sort((a, b) => a.event - b.event || a.row.host.localeCompare(b.row.host) || a.index - b.index)
    .map(({ row }) => row);

const summary = (rows: Rows) =>
  byEvent(rows).map((row) => [row.kind, row.type, row.host, row.status, row.attempts, row.wait?.reason ?? null]);

describe('deliveries of an operation', () => {
  const ids: Record<string, string> = {};

  it('lists a charge without callback_url delivered to each endpoint subscribed, each waiting for its reason', async () => {
    await createEndpoint(fixture.db.prisma, scope(), undefined, {
      url: `${receiver.origin()}/hooks`,
      eventTypes: ['*'],
      description: '',
    });
    await createEndpoint(fixture.db.prisma, scope(), undefined, {
      url: `${UNRESOLVED}/hooks`,
      eventTypes: ['transaction.authorized'],
      description: '',
    });
    ids.first = await charge('dl-1');
    ids.own = await charge('dl-own', `${receiver.origin()}/own`);
    const host = new URL(receiver.origin()).host;
    // Before any worker: the first of each endpoint's events is queued, the later ones wait for it.
    expect(summary(await deliveriesOf(fixture.db.prisma, [ids.first]))).toEqual([
      ['endpoint', 'transaction.registered', host, 'PENDING', 0, 'queued'],
      ['endpoint', 'transaction.pending', host, 'PENDING', 0, 'behind_earlier'],
      ['endpoint', 'transaction.authorized', host, 'PENDING', 0, 'behind_earlier'],
      ['endpoint', 'transaction.authorized', 'nonexistent.invalid', 'PENDING', 0, 'queued'],
    ]);
    // Nothing waiting on something else has a next attempt to show: its stored time has passed already.
    expect((await deliveriesOf(fixture.db.prisma, [ids.first])).map((row) => row.nextAttemptAt)).toEqual([
      null,
      null,
      null,
      null,
    ]);
    // An operation with its callback_url: its URL only, as before.
    expect(summary(await deliveriesOf(fixture.db.prisma, [ids.own]))).toEqual([
      ['callback', 'transaction.registered', host, 'PENDING', 0, 'queued'],
      ['callback', 'transaction.pending', host, 'PENDING', 0, 'behind_earlier'],
      ['callback', 'transaction.authorized', host, 'PENDING', 0, 'behind_earlier'],
    ]);
  });

  it('after the worker: delivered ones with their attempt, the unresolved one retried later with its failure', async () => {
    await deliverAll(fixture.db.prisma);
    const rows = byEvent(await deliveriesOf(fixture.db.prisma, [ids.first!]));
    expect(summary(rows).map((row) => row.slice(3))).toEqual([
      ['DELIVERED', 1, null],
      ['DELIVERED', 1, null],
      ['DELIVERED', 1, null],
      ['PENDING', 1, 'retry_scheduled'],
    ]);
    expect(rows.slice(0, 3).map((row) => [row.attemptLog.length, row.attemptLog[0]!.statusCode, row.nextAttemptAt])).toEqual([
      [1, 200, null],
      [1, 200, null],
      [1, 200, null],
    ]);
    const unresolved = rows[3]!;
    expect(unresolved.attemptLog).toHaveLength(1);
    expect(unresolved.attemptLog[0]!.statusCode).toBeNull();
    expect(unresolved.attemptLog[0]!.error).toMatch(/^callback host nonexistent\.invalid did not resolve/);
    expect(unresolved.lastError).toBe(unresolved.attemptLog[0]!.error);
    // The retry schedule's next step (one minute, ±10 %) is later than the destination's 1 s hold.
    const stored = await fixture.db.prisma.endpointDelivery.findUniqueOrThrow({ where: { id: unresolved.id } });
    expect(unresolved.wait).toEqual({ reason: 'retry_scheduled', at: stored.nextAttemptAt.toISOString() });
    expect(unresolved.nextAttemptAt).toBe(stored.nextAttemptAt.toISOString());
    expect(summary(await deliveriesOf(fixture.db.prisma, [ids.own!])).map((row) => row[3])).toEqual([
      'DELIVERED',
      'DELIVERED',
      'DELIVERED',
    ]);
  });

  it('a delivery not yet attempted to a held destination says so: until when, and the last failure', async () => {
    // The destination failed again and again: held for two minutes, past the retry's schedule.
    await fixture.db.prisma.$executeRaw`
      UPDATE callback_destinations SET held_until = now() + interval '2 minutes', failures = 7
      WHERE destination = ${UNRESOLVED}`;
    const held = await fixture.db.prisma.callbackDestination.findUniqueOrThrow({ where: { destination: UNRESOLVED } });
    expect(held.lastError).toMatch(/^callback host nonexistent\.invalid did not resolve/);
    ids.second = await charge('dl-2');
    await deliverAll(fixture.db.prisma);
    const rows = await deliveriesOf(fixture.db.prisma, [ids.second]);
    const waiting = rows.find((row) => row.host === 'nonexistent.invalid')!;
    expect([waiting.status, waiting.attempts, waiting.attemptLog]).toEqual(['PENDING', 0, []]);
    const wait = { reason: 'destination_held', until: held.heldUntil.toISOString(), failures: 7, lastFailure: held.lastError };
    expect(waiting.wait).toEqual(wait);
    expect(waiting.nextAttemptAt).toBe(held.heldUntil.toISOString());
    // The earlier operation's retry too now waits for the hold, which ends after its schedule.
    const first = (await deliveriesOf(fixture.db.prisma, [ids.first!])).find((row) => row.host === 'nonexistent.invalid')!;
    expect(first.wait).toEqual(wait);
  });
});

describe('the delivery log', () => {
  it("lists both kinds, newest event first, page by page, filtered by state, only the user's merchant's", async () => {
    const all = await listDeliveries(fixture.db.prisma, scope(), { limit: 100 });
    const host = new URL(receiver.origin()).host;
    expect(byEvent(all.rows).map((row) => [row.type, row.kind, row.host, row.status])).toEqual([
      ['transaction.authorized', 'endpoint', host, 'DELIVERED'],
      ['transaction.authorized', 'endpoint', 'nonexistent.invalid', 'PENDING'],
      ['transaction.pending', 'endpoint', host, 'DELIVERED'],
      ['transaction.registered', 'endpoint', host, 'DELIVERED'],
      ['transaction.authorized', 'callback', host, 'DELIVERED'],
      ['transaction.pending', 'callback', host, 'DELIVERED'],
      ['transaction.registered', 'callback', host, 'DELIVERED'],
      ['transaction.authorized', 'endpoint', host, 'DELIVERED'],
      ['transaction.authorized', 'endpoint', 'nonexistent.invalid', 'PENDING'],
      ['transaction.pending', 'endpoint', host, 'DELIVERED'],
      ['transaction.registered', 'endpoint', host, 'DELIVERED'],
    ]);
    expect(all.nextCursor).toBeNull();
    // Page by page, across kinds and events, the same rows.
    const pages = [];
    let cursor: string | undefined;
    do {
      const page = await listDeliveries(fixture.db.prisma, scope(), { limit: 3, cursor });
      pages.push(...page.rows);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(pages.map((row) => row.id)).toEqual(all.rows.map((row) => row.id));
    const pending = await listDeliveries(fixture.db.prisma, scope(), { status: 'PENDING' });
    expect(pending.rows.map((row) => [row.host, row.wait?.reason])).toEqual([
      ['nonexistent.invalid', 'destination_held'],
      ['nonexistent.invalid', 'destination_held'],
    ]);
    // Another merchant's user sees none of them, nor by naming this merchant.
    const other = await testMerchant(fixture.db.prisma, 'DELIVO');
    const theirs = { kind: 'one' as const, merchantId: other.id };
    expect((await listDeliveries(fixture.db.prisma, theirs, {})).rows).toEqual([]);
    expect((await listDeliveries(fixture.db.prisma, theirs, { merchantId: fixture.merchant.id })).rows).toEqual([]);
    expect((await listDeliveries(fixture.db.prisma, { kind: 'all' }, { merchantId: null })).rows).toEqual([]);
  });
});

describe('why a pending delivery waits', () => {
  const now = new Date('2026-11-27T12:00:00.000Z');
  const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);
  const row = (fields: Partial<DeliveryRow>): DeliveryRow => ({
    kind: 'endpoint',
    id: 'd',
    event_id: 'e',
    endpoint_id: 'w',
    type: 'transaction.authorized',
    aggregate_id: 'a',
    seq: 1n,
    merchant_id: 'm',
    url: 'https://hooks.example.pe/x',
    status: 'PENDING',
    attempts: 0,
    next_attempt_at: at(-1),
    lease_until: null,
    delivered_at: null,
    last_error: null,
    created_at: at(-10),
    endpoint_enabled: true,
    behind: false,
    held_until: null,
    held_failures: null,
    held_error: null,
    ...fields,
  });

  it('follows the claim: a lease, a disabled endpoint, an earlier event, a hold, the schedule, then due', () => {
    expect(waitOf(row({ status: 'DELIVERED' }), now)).toBeNull();
    expect(waitOf(row({ status: 'FAILED' }), now)).toBeNull();
    expect(waitOf(row({ lease_until: at(5), endpoint_enabled: false }), now)).toEqual({ reason: 'sending' });
    expect(waitOf(row({ lease_until: at(-5), endpoint_enabled: false, behind: true }), now)).toEqual({
      reason: 'endpoint_disabled',
    });
    expect(waitOf(row({ behind: true, held_until: at(30) }), now)).toEqual({ reason: 'behind_earlier' });
    expect(waitOf(row({ held_until: at(30), held_failures: 3, held_error: 'no answer within 10000 ms' }), now)).toEqual({
      reason: 'destination_held',
      until: at(30).toISOString(),
      failures: 3,
      lastFailure: 'no answer within 10000 ms',
    });
    // A hold that ends before the scheduled retry is not why it waits; one that is over neither.
    expect(waitOf(row({ attempts: 1, next_attempt_at: at(60), held_until: at(4) }), now)).toEqual({
      reason: 'retry_scheduled',
      at: at(60).toISOString(),
    });
    expect(waitOf(row({ held_until: at(-1) }), now)).toEqual({ reason: 'queued' });
    expect(waitOf(row({ attempts: 2 }), now)).toEqual({ reason: 'retry_due' });
    // A callback has no endpoint: never "disabled".
    expect(waitOf(row({ kind: 'callback', endpoint_id: null, endpoint_enabled: null }), now)).toEqual({ reason: 'queued' });
  });
});
