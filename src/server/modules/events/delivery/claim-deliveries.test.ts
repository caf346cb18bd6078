import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { withTestDatabase } from '@tests/support/procedure-test-support';
import { statementsSent } from '@/server/platform/db/statement-count';
import { claimDueDeliveries as claimDueEvents } from './claim-deliveries';

// Claiming due callbacks: per destination at most CALLBACK_DESTINATION_CONCURRENCY (4) in flight,
// destinations and merchants served round-robin, one aggregate's events in order.

const fixture = withTestDatabase();

beforeEach(async () => {
  await fixture.db.prisma.outboxEvent.deleteMany();
  await fixture.db.prisma.callbackDestination.deleteMany();
});

type Due = { destination: string; merchantId?: string; aggregateId?: string; ageSeconds?: number };

async function insertDue(events: Due[]): Promise<string[]> {
  const now = Date.now();
  const rows = events.map((event, index) => ({
    id: randomUUID(),
    merchantId: event.merchantId ?? randomUUID(),
    type: 'transaction.authorized',
    aggregateId: event.aggregateId ?? randomUUID(),
    callbackUrl: `${event.destination}/hooks`,
    destination: event.destination,
    payload: {},
    // Older first, in insertion order.
    nextAttemptAt: new Date(now - (event.ageSeconds ?? 1000) * 1000 + index),
  }));
  await fixture.db.prisma.outboxEvent.createMany({ data: rows });
  return rows.map((row) => row.id);
}

function destinationsOf(ids: string[], all: Map<string, string>): string[] {
  return ids.map((id) => all.get(id)!).sort();
}

describe('claimDueEvents', () => {
  it('takes at most four in flight per destination, so a crowded one leaves room for the next', async () => {
    const dead = await insertDue(Array.from({ length: 300 }, () => ({ destination: 'http://dead.example' })));
    const [healthy] = await insertDue([{ destination: 'http://healthy.example', ageSeconds: 1 }]);
    const where = new Map([...dead.map((id) => [id, 'dead'] as const), [healthy!, 'healthy']]);
    const first = await claimDueEvents(fixture.db.prisma, 32);
    expect(
      destinationsOf(
        first.map((event) => event.id),
        where,
      ),
    ).toEqual(['dead', 'dead', 'dead', 'dead', 'healthy']);
    // The dead destination's four are still leased: nothing more goes to it.
    expect(await claimDueEvents(fixture.db.prisma, 32)).toEqual([]);
    const [later] = await insertDue([{ destination: 'http://healthy.example', ageSeconds: 0 }]);
    expect((await claimDueEvents(fixture.db.prisma, 32)).map((event) => event.id)).toEqual([later]);
  });

  it('shares a small capacity round-robin across destinations and merchants', async () => {
    const busy = randomUUID();
    const quiet = randomUUID();
    const events: Due[] = [];
    for (const host of ['a', 'b', 'c'])
      for (let i = 0; i < 4; i += 1) events.push({ destination: `http://${host}.example`, merchantId: busy });
    events.push({ destination: 'http://d.example', merchantId: quiet, ageSeconds: 1 });
    await insertDue(events);
    const claimed = await claimDueEvents(fixture.db.prisma, 4);
    const hosts = claimed.map((event) => new URL(event.url).hostname).sort();
    // One of each destination, the quiet merchant's newest event included, before any second of the busy one's.
    expect(hosts).toEqual(['a.example', 'b.example', 'c.example', 'd.example']);
  });

  it('at capacity, still starts one delivery for each destination with none under way', async () => {
    await insertDue(Array.from({ length: 10 }, () => ({ destination: 'http://dead.example' })));
    expect(await claimDueEvents(fixture.db.prisma, 32)).toHaveLength(4);
    const [fresh] = await insertDue([{ destination: 'http://fresh.example' }, { destination: 'http://fresh.example' }]);
    // One for the idle destination, none for the busy one, however much is asked.
    expect((await claimDueEvents(fixture.db.prisma, 32, { idleOnly: true })).map((event) => event.id)).toEqual([fresh]);
    expect(await claimDueEvents(fixture.db.prisma, 32, { idleOnly: true })).toEqual([]);
  });

  it("claims an aggregate's next event only once the one before it is no longer pending", async () => {
    const aggregateId = randomUUID();
    const [first, second] = await insertDue([
      { destination: 'http://one.example', aggregateId },
      { destination: 'http://one.example', aggregateId },
    ]);
    expect((await claimDueEvents(fixture.db.prisma, 8)).map((event) => event.id)).toEqual([first]);
    await fixture.db.prisma.outboxEvent.update({ where: { id: first }, data: { status: 'DELIVERED', leaseUntil: null } });
    expect((await claimDueEvents(fixture.db.prisma, 8)).map((event) => event.id)).toEqual([second]);
  });

  it('with nothing due, asks in one statement and opens no transaction', async () => {
    const [later] = await insertDue([{ destination: 'http://later.example', ageSeconds: -60 }]);
    const [leased] = await insertDue([{ destination: 'http://busy.example' }]);
    await fixture.db.prisma.outboxEvent.update({ where: { id: leased! }, data: { leaseUntil: new Date(Date.now() + 60_000) } });
    const before = statementsSent();
    expect(await claimDueEvents(fixture.db.prisma, 32)).toEqual([]);
    expect(statementsSent() - before).toBe(1);
    // Once one is due, the claim runs: BEGIN, the lock, the claim, COMMIT after the check.
    await fixture.db.prisma.outboxEvent.update({ where: { id: later! }, data: { nextAttemptAt: new Date(Date.now() - 1000) } });
    const beforeClaim = statementsSent();
    expect((await claimDueEvents(fixture.db.prisma, 32)).map((event) => event.id)).toEqual([later]);
    expect(statementsSent() - beforeClaim).toBe(5);
  });

  it('takes a destination again once its deliveries are over (leases cleared or run out)', async () => {
    await insertDue(Array.from({ length: 6 }, () => ({ destination: 'http://slow.example' })));
    const first = await claimDueEvents(fixture.db.prisma, 32);
    expect(first).toHaveLength(4);
    await fixture.db.prisma.outboxEvent.updateMany({
      where: { id: { in: first.slice(0, 2).map((event) => event.id) } },
      data: { leaseUntil: new Date(Date.now() - 1000), nextAttemptAt: new Date(Date.now() + 60_000) },
    });
    expect(await claimDueEvents(fixture.db.prisma, 32)).toHaveLength(2);
  });
});

describe('destination holds', () => {
  it('skips a destination held after a failure, and serves it again once the hold is over', async () => {
    await insertDue([{ destination: 'http://down.example' }, { destination: 'http://up.example' }]);
    await fixture.db.prisma.callbackDestination.create({
      data: { destination: 'http://down.example', failures: 3, heldUntil: new Date(Date.now() + 60_000), updatedAt: new Date() },
    });
    expect((await claimDueEvents(fixture.db.prisma, 8)).map((event) => event.destination)).toEqual(['http://up.example']);
    await fixture.db.prisma.callbackDestination.update({
      where: { destination: 'http://down.example' },
      data: { heldUntil: new Date(Date.now() - 1) },
    });
    expect((await claimDueEvents(fixture.db.prisma, 8)).map((event) => event.destination)).toEqual(['http://down.example']);
  });

  it('ranks first attempts before retries of the same slot', async () => {
    await insertDue([
      { destination: 'http://retrying.example', ageSeconds: 100 },
      { destination: 'http://new.example', ageSeconds: 1 },
    ]);
    await fixture.db.prisma.outboxEvent.updateMany({ where: { destination: 'http://retrying.example' }, data: { attempts: 2 } });
    expect((await claimDueEvents(fixture.db.prisma, 1)).map((event) => event.destination)).toEqual(['http://new.example']);
  });
});
