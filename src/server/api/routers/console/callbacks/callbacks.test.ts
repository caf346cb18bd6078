import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@/generated/prisma/client';
import type { ConsoleSession } from '@/server/modules/access/console-session';
import { authorizeCharge } from '@/server/modules/charges/authorize-charge';
import { settleAuthorized } from '@/server/modules/charges/settle-authorized';
import {
  chargeRequest,
  openTestDatabase,
  refusal,
  sessionAs,
  testMerchant,
  type TestDatabase,
} from '@tests/support/procedure-test-support';

// The callback delivery log and the manual resend, per role, at the procedure level.
let db: TestDatabase;
let prisma: PrismaClient;
let caller: TestDatabase['caller'];
let receiver: Server;
let hookUrl: string;
const received: { eventId: string; body: { event_id?: string; event_type?: string } }[] = [];
const ids: Record<string, string> = {};

const as = (role: ConsoleSession['role'], merchant?: 'A' | 'B'): ConsoleSession =>
  sessionAs(role, merchant ? ids[merchant]! : null);

const eventsOf = (transactionId: string) =>
  prisma.outboxEvent.findMany({ where: { aggregateId: transactionId }, orderBy: { seq: 'asc' } });

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        eventId: String(request.headers['x-event-id']),
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as { event_id?: string },
      });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  db = await openTestDatabase();
  prisma = db.prisma;
  caller = db.caller;
  for (const code of ['A', 'B']) {
    const acting = await testMerchant(prisma, `HOOK${code}`);
    ids[code] = acting.id;
    const card = await authorizeCharge(
      prisma,
      acting,
      chargeRequest(acting.code, `${code}-card`, 'CARD', { callbackUrl: hookUrl }),
    );
    ids[`${code}-card`] = card.transaction.transaction_id;
    // No callback_url: its events are SKIPPED and are not callbacks.
    await authorizeCharge(prisma, acting, chargeRequest(acting.code, `${code}-qr`, 'QR'));
  }
}, 60_000);

afterAll(async () => {
  await db.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

describe('console.callbackEvents (the delivery log)', () => {
  it('needs a signed-in user', async () => {
    expect(await refusal(() => caller().console.callbackEvents({}))).toBe('UNAUTHENTICATED');
  });

  it("shows a merchant user its merchant's callbacks only, newest first, with the operation and destination", async () => {
    const log = await caller(as('MERCHANT_VIEWER', 'A')).console.callbackEvents({});
    expect(log.rows.map((row) => [row.merchantCode, row.type, row.status, row.operationNumber])).toEqual([
      ['HOOKA', 'transaction.authorized', 'PENDING', 'A-card'],
      ['HOOKA', 'transaction.pending', 'PENDING', 'A-card'],
      ['HOOKA', 'transaction.registered', 'PENDING', 'A-card'],
    ]);
    expect(new Set(log.rows.map((row) => row.transactionId))).toEqual(new Set([ids['A-card']]));
    expect(log.rows[0]!.host).toBe(new URL(hookUrl).host);
    expect(log.rows.map((row) => row.kind)).toEqual(['callback', 'callback', 'callback']);
    expect(log.nextCursor).toBeNull();
    // Naming another merchant finds nothing, as if it did not exist.
    expect((await caller(as('MERCHANT_ADMIN', 'A')).console.callbackEvents({ merchantCode: 'HOOKB' })).rows).toEqual([]);
  });

  it('shows support and platform admins every merchant, filtered by merchant and status, page by page', async () => {
    const support = caller(as('SUPPORT'));
    const all = await support.console.callbackEvents({});
    expect(all.rows.map((row) => row.merchantCode)).toEqual(['HOOKB', 'HOOKB', 'HOOKB', 'HOOKA', 'HOOKA', 'HOOKA']);
    const onlyB = await caller(as('PLATFORM_ADMIN')).console.callbackEvents({ merchantCode: 'HOOKB' });
    expect(onlyB.rows.map((row) => row.operationNumber)).toEqual(['B-card', 'B-card', 'B-card']);
    expect((await support.console.callbackEvents({ merchantCode: 'NOSUCH' })).rows).toEqual([]);
    expect((await support.console.callbackEvents({ status: 'DELIVERED' })).rows).toEqual([]);
    const first = await support.console.callbackEvents({ limit: 4 });
    const second = await support.console.callbackEvents({ limit: 4, cursor: first.nextCursor! });
    expect([...first.rows, ...second.rows].map((row) => row.id)).toEqual(all.rows.map((row) => row.id));
    expect(second.nextCursor).toBeNull();
    expect(await refusal(() => support.console.callbackEvents({ cursor: 'abc' }))).toBe('VALIDATION');
  });
});

describe('console.resendEvent', () => {
  it('is refused to read-only roles and changes nothing', async () => {
    const [event] = await eventsOf(ids['A-card']!);
    expect(await refusal(() => caller(as('MERCHANT_VIEWER', 'A')).console.resendEvent({ eventId: event!.id }))).toBe('FORBIDDEN');
    expect(await refusal(() => caller(as('SUPPORT')).console.resendEvent({ eventId: event!.id }))).toBe('FORBIDDEN');
    expect(await prisma.callbackAttempt.count()).toBe(0);
    expect(received).toEqual([]);
  });

  it("answers not found for another merchant's event or an unknown one, and sends nothing", async () => {
    const [event] = await eventsOf(ids['B-card']!);
    const admin = caller(as('MERCHANT_ADMIN', 'A'));
    expect(await refusal(() => admin.console.resendEvent({ eventId: event!.id }))).toBe('NOT_FOUND');
    expect(await refusal(() => admin.console.resendEvent({ eventId: '00000000-0000-4000-8000-000000000000' }))).toBe('NOT_FOUND');
    expect(await prisma.callbackAttempt.count()).toBe(0);
    expect(received).toEqual([]);
  });

  it('sends the event now and records a manual attempt that the log shows', async () => {
    const [registered] = await eventsOf(ids['A-card']!);
    const sent = await caller(as('MERCHANT_ADMIN', 'A')).console.resendEvent({ eventId: registered!.id });
    expect(sent).toMatchObject({ eventId: registered!.id, status: 'DELIVERED', attempts: 1 });
    expect(sent.attempt).toMatchObject({ number: 1, statusCode: 200, error: null, manual: true });
    expect(received.map((callback) => [callback.eventId, callback.body.event_id, callback.body.event_type])).toEqual([
      [registered!.id, registered!.id, 'transaction.registered'],
    ]);
    const delivered = await caller(as('MERCHANT_VIEWER', 'A')).console.callbackEvents({ status: 'DELIVERED' });
    expect(delivered.rows.map((row) => [row.id, row.attemptLog.map((attempt) => [attempt.statusCode, attempt.manual])])).toEqual([
      [registered!.id, [[200, true]]],
    ]);
  });

  it('answers CONFLICT while the event is being delivered, and sends nothing more', async () => {
    const [, pending] = await eventsOf(ids['A-card']!);
    await prisma.outboxEvent.update({ where: { id: pending!.id }, data: { leaseUntil: new Date(Date.now() + 60_000) } });
    expect(await refusal(() => caller(as('MERCHANT_ADMIN', 'A')).console.resendEvent({ eventId: pending!.id }))).toBe('CONFLICT');
    expect(received).toHaveLength(1);
    expect(await prisma.callbackAttempt.count({ where: { eventId: pending!.id } })).toBe(0);
  });

  it("lets a platform admin resend any merchant's event", async () => {
    const [event] = await eventsOf(ids['B-card']!);
    const sent = await caller(as('PLATFORM_ADMIN')).console.resendEvent({ eventId: event!.id });
    expect(sent.attempt).toMatchObject({ statusCode: 200, manual: true });
    expect(received.at(-1)!.eventId).toBe(event!.id);
  });

  it("links a refund's events to the operation's transaction", async () => {
    await settleAuthorized(prisma, new Date(), { merchantId: ids['A'] });
    const admin = caller(as('MERCHANT_ADMIN', 'A'));
    await admin.console.refund({
      transactionId: ids['A-card']!,
      additional_fields: { canal: 'console', reason: 'talla', description: '' },
    });
    const [latest] = (await admin.console.callbackEvents({ limit: 1 })).rows;
    expect(latest).toMatchObject({ type: 'refund.registered', operationNumber: 'A-card', transactionId: ids['A-card'] });
  });
});
