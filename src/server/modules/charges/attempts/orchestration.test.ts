import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chargeRequest, testMerchant, withTestMerchant } from '@tests/support/procedure-test-support';
import type { ActingMerchant } from '@/server/modules/access/acting-merchant';
import { failsFlakily, registryFor, sandboxStoreFor } from '@/server/payments';
import { syncStatuses } from '@/server/modules/charges/sync-status';
import { authorizeCharge } from '@/server/modules/charges/authorize-charge';
import { cancelOperation } from '@/server/modules/charges/cancel-operation';
import { verifyChallenge } from '@/server/core/three-ds/directory';
import { routingView, publishDraft, saveDraft, updatePolicy, updateThreeDs } from '@/server/modules/routing/merchant-routing';
import { breakers } from '@/server/modules/processors/breakers';
import { bulkheads } from '@/server/modules/processors/bulkheads';
import { completeChallenge } from './complete-challenge';
import { claimCharge } from './claim-charge';
import { attemptRows, newAttempt } from './attempt-rows';

// The charge path's orchestration against a real (embedded) database and the sandbox processors
// (docs/ORCHESTRATION.md 2-3): which processor carried each attempt, when routing moves on and
// when it must not, the status inquiry after a timeout, and the worker's status sync.
const fixture = withTestMerchant('ORCH');
let sequence = 0;
const number = () => `orch-${(sequence += 1)}`;
const ALL = { kind: 'all' } as const;

beforeEach(async () => {
  const store = sandboxStoreFor(fixture.db.prisma);
  for (const connector of registryFor(fixture.db.prisma).connectors) await store.setMode(connector.id, 'normal');
  await cardPolicy({ maxAttempts: 2, retrySoftDeclines: false });
});

/** The merchant's retry policy for CARD, within a 10 s budget. */
function cardPolicy(policy: { maxAttempts: number; retrySoftDeclines: boolean }) {
  return updatePolicy(fixture.db.prisma, ALL, {
    merchantCode: fixture.merchant.code,
    method: 'CARD',
    budgetMs: 10_000,
    ...policy,
  });
}

async function attempts(operationNumber: string) {
  return fixture.db.prisma.transaction.findMany({
    where: { operation: { merchantId: fixture.merchant.id, merchantOperationNumber: operationNumber } },
    orderBy: { attempt: 'asc' },
    select: {
      id: true,
      attempt: true,
      state: true,
      connectorId: true,
      declineClass: true,
      additionalFields: true,
      routing: true,
      latencyMs: true,
      authorizationReply: true,
      lifecycle: { select: { state: true }, orderBy: { id: 'asc' } },
    },
  });
}

/** The first write of a charge (claimCharge) without asking any processor: the attempt stays REGISTRADO. */
async function claim(owner: ActingMerchant, operationNumber: string) {
  const base = {
    merchant: owner,
    body: chargeRequest(owner.code, operationNumber, 'CARD'),
    requestHash: `hash-${operationNumber}`,
    card: null,
    methodDetails: {},
    authentication: null,
    captureMode: 'AUTOMATIC' as const,
    cardSaveId: null,
    storedCredential: null,
  };
  const attempt = newAttempt(
    base,
    { connectorId: 'sandbox-acquirer-a', routing: { rule_version: null, route: null, reason: 'test' } },
    0,
    new Date(),
  );
  const outcome = await claimCharge(
    fixture.db.prisma,
    { merchantId: owner.id, merchantOperationNumber: operationNumber, requestHash: base.requestHash },
    attemptRows(base, attempt, new Date(Date.now() - 1_000)),
  );
  return { id: attempt.row.id, outcome };
}

async function charge(pan: string, method: 'CARD' | 'YAPE' = 'CARD', otp?: string) {
  const operationNumber = number();
  const reply = await authorizeCharge(
    fixture.db.prisma,
    fixture.merchant,
    chargeRequest(fixture.merchant.code, operationNumber, method, { pan, otp }),
  );
  return { reply, rows: await attempts(operationNumber), operationNumber };
}

describe('routing and failover on the platform default', () => {
  it('an approval at the first acquirer is one attempt that names it, the rule and the route', async () => {
    const { reply, rows } = await charge('4111111111111111');
    expect(reply.transaction.state).toBe('AUTORIZADO');
    expect(reply.transaction.additional_fields).toEqual({ processor: 'sandbox-acquirer-a', attempt: 1 });
    expect(rows.map((row) => [row.attempt, row.state, row.connectorId])).toEqual([[1, 'AUTORIZADO', 'sandbox-acquirer-a']]);
    expect(rows[0]!.routing).toMatchObject({ rule_version: null, route: null });
    expect(rows[0]!.lifecycle.map((entry) => entry.state)).toEqual(['REGISTRADO', 'PENDIENTE', 'AUTORIZADO']);
  });

  it('a technical failure (96) at A moves on to B, which approves: two attempts, the answer is the second', async () => {
    const { reply, rows } = await charge('4000000000008013');
    expect(rows.map((row) => [row.attempt, row.state, row.connectorId, row.declineClass])).toEqual([
      [1, 'DENEGADO', 'sandbox-acquirer-a', 'technical'],
      [2, 'AUTORIZADO', 'sandbox-acquirer-b', null],
    ]);
    expect(reply.transaction.additional_fields).toEqual({ processor: 'sandbox-acquirer-b', attempt: 2 });
    // Only the answer's attempt keeps the reply a replay gives back.
    expect(rows.map((row) => row.authorizationReply !== null)).toEqual([false, true]);
  });

  it('a soft decline stays with A unless the merchant opts in; with the policy on, B approves', async () => {
    const off = await charge('4000000000008005');
    expect(off.rows.map((row) => [row.state, row.connectorId, row.declineClass])).toEqual([
      ['DENEGADO', 'sandbox-acquirer-a', 'soft'],
    ]);
    await cardPolicy({ maxAttempts: 2, retrySoftDeclines: true });
    const on = await charge('4000000000008005');
    expect(on.rows.map((row) => [row.state, row.connectorId])).toEqual([
      ['DENEGADO', 'sandbox-acquirer-a'],
      ['AUTORIZADO', 'sandbox-acquirer-b'],
    ]);
  });

  it('a hard decline is never tried elsewhere', async () => {
    const { rows } = await charge('4000000000000127');
    expect(rows.map((row) => [row.state, row.connectorId, row.declineClass])).toEqual([
      ['DENEGADO', 'sandbox-acquirer-a', 'hard'],
    ]);
  });

  it('max_attempts 1 keeps a technical failure at the first acquirer', async () => {
    await cardPolicy({ maxAttempts: 1, retrySoftDeclines: false });
    const { rows } = await charge('4000000000008013');
    expect(rows.map((row) => [row.state, row.connectorId])).toEqual([['DENEGADO', 'sandbox-acquirer-a']]);
  });

  it("a call A's bulkhead keeps back (full after routing chose A) goes to B, even with max_attempts 1: none was sent", async () => {
    await cardPolicy({ maxAttempts: 1, retrySoftDeclines: false });
    const acquirerA = registryFor(fixture.db.prisma).connectors.find((connector) => connector.id === 'sandbox-acquirer-a')!;
    const bulkhead = bulkheads().for(acquirerA);
    const breaker = breakers().breakerFor(acquirerA.id);
    const held: (() => void)[] = [];
    // Routing asks the bulkhead, then the breaker: other requests take A's last places in between.
    const allowRequest = breaker.allowRequest.bind(breaker);
    breaker.allowRequest = () => {
      for (let release = bulkhead.enter(); release; release = bulkhead.enter()) held.push(release);
      return allowRequest();
    };
    const refusedBefore = bulkhead.refused;
    try {
      const { reply, rows } = await charge('4111111111111111');
      expect(reply.transaction.state).toBe('AUTORIZADO');
      expect(reply.transaction.additional_fields).toEqual({ processor: 'sandbox-acquirer-b', attempt: 2 });
      expect(rows.map((row) => [row.attempt, row.state, row.connectorId, row.declineClass])).toEqual([
        [1, 'DENEGADO', 'sandbox-acquirer-a', 'technical'],
        [2, 'AUTORIZADO', 'sandbox-acquirer-b', null],
      ]);
      // Counted against the bulkhead (the refusal after the last place taken, then the call's).
      expect(bulkhead.refused - refusedBefore).toBe(2);
      expect(held).toHaveLength(bulkhead.limit);
    } finally {
      breaker.allowRequest = allowRequest;
      for (const release of held) release();
    }
    expect(bulkhead.inFlight).toBe(0);
  });

  it('an outage at A is skipped over to B for cards, and at sandbox-yape to sandbox-yape-b for Yape', async () => {
    const store = sandboxStoreFor(fixture.db.prisma);
    await store.setMode('sandbox-acquirer-a', 'outage');
    await store.setMode('sandbox-yape', 'outage');
    const card = await charge('4111111111111111');
    expect(card.rows.map((row) => [row.state, row.connectorId])).toEqual([
      ['DENEGADO', 'sandbox-acquirer-a'],
      ['AUTORIZADO', 'sandbox-acquirer-b'],
    ]);
    const yape = await charge('', 'YAPE');
    expect(yape.rows.map((row) => [row.state, row.connectorId])).toEqual([
      ['DENEGADO', 'sandbox-yape'],
      ['AUTORIZADO', 'sandbox-yape-b'],
    ]);
  });

  it('a Yape processor error is not tried elsewhere: the one-time code may have been spent', async () => {
    // flaky: a third of the rail's payments fail with 96, decided by the transaction id.
    await sandboxStoreFor(fixture.db.prisma).setMode('sandbox-yape', 'flaky');
    // Failures in a row may open the rail's breaker; routing then sends the next payment to
    // sandbox-yape-b, which approves. Either way a payment has one attempt.
    for (let index = 0; index < 12; index += 1) {
      const { rows } = await charge('', 'YAPE');
      expect(rows).toHaveLength(1);
      const [row] = rows;
      const failed = row!.connectorId === 'sandbox-yape' && failsFlakily(row!.id);
      expect([row!.state, row!.declineClass]).toEqual(failed ? ['DENEGADO', 'technical'] : ['AUTORIZADO', null]);
    }
  });

  it('an answer after the timeout is asked about, not retried elsewhere: the approval A made is the result', async () => {
    const { reply, rows } = await charge('4000000000008021');
    expect(reply.transaction.state).toBe('AUTORIZADO');
    expect(rows.map((row) => [row.state, row.connectorId])).toEqual([['AUTORIZADO', 'sandbox-acquirer-a']]);
  });
});

describe("a merchant's rule", () => {
  it('routes by its conditions, and a payment no route holds falls back to the platform default, saying so', async () => {
    await saveDraft(
      fixture.db.prisma,
      ALL,
      {
        merchantCode: fixture.merchant.code,
        method: 'CARD',
        routes: [{ connector: 'sandbox-acquirer-b', priority: 1, weight: 100, conditions: { brands: ['MASTERCARD'] } }],
      },
      'test',
    );
    const published = await publishDraft(fixture.db.prisma, ALL, { merchantCode: fixture.merchant.code, method: 'CARD' });
    expect(published.published?.version).toBe(1);
    const mastercard = await charge('5555555555554444');
    expect(mastercard.rows.map((row) => [row.connectorId, row.routing])).toEqual([
      ['sandbox-acquirer-b', expect.objectContaining({ rule_version: 1, route: 0 })],
    ]);
    const visa = await charge('4111111111111111');
    expect(visa.rows[0]!.connectorId).toBe('sandbox-acquirer-a');
    expect((visa.rows[0]!.routing as { reason: string }).reason).toMatch(/^no route of rule v1 holds: platform default/);
  });

  it('a rule naming an unknown connector is refused with the field, and nothing is saved', async () => {
    await expect(
      saveDraft(
        fixture.db.prisma,
        ALL,
        {
          merchantCode: fixture.merchant.code,
          method: 'CARD',
          routes: [{ connector: 'nope', priority: 1, weight: 100, conditions: {} }],
        },
        'test',
      ),
    ).rejects.toMatchObject({ kind: 'VALIDATION', errors: [expect.objectContaining({ field: 'routes[0].connector' })] });
    expect((await routingView(fixture.db.prisma, ALL, fixture.merchant.code, 'CARD')).draft).toBeNull();
  });
});

describe('one answer per request', () => {
  it('concurrent identical charges get one answer and leave one attempt', async () => {
    const operationNumber = number();
    const request = chargeRequest(fixture.merchant.code, operationNumber, 'CARD');
    const replies = await Promise.all(
      Array.from({ length: 5 }, () => authorizeCharge(fixture.db.prisma, fixture.merchant, request)),
    );
    // The same answer (over HTTP the output schema also gives it the same bytes).
    for (const reply of replies.slice(1)) expect(reply).toEqual(replies[0]);
    expect((await attempts(operationNumber)).map((row) => row.state)).toEqual(['AUTORIZADO']);
  });
});

describe("the worker's status sync", () => {
  it('settles an attempt nobody answered: approved where the processor approved it, declined where it never arrived', async () => {
    // A charge claimed while its instance died before the processor answered: REGISTRADO, due for a check.
    const claimed = async (operationNumber: string) => (await claim(fixture.merchant, operationNumber)).id;
    const approvedId = await claimed(number());
    const lostId = await claimed(number());
    await sandboxStoreFor(fixture.db.prisma).record('sandbox-acquirer-a', approvedId, {
      outcome: 'approved',
      authorizationCode: '123456',
      brandTransactionId: '401234567890123',
    });
    expect(await syncStatuses(fixture.db.prisma)).toBeGreaterThanOrEqual(2);
    const states = await fixture.db.prisma.transaction.findMany({
      where: { id: { in: [approvedId, lostId] } },
      select: {
        id: true,
        state: true,
        statusCheckAt: true,
        processorResponse: true,
        lifecycle: { select: { state: true }, orderBy: { id: 'asc' } },
      },
    });
    const byId = new Map(states.map((row) => [row.id, row]));
    expect(byId.get(approvedId)).toMatchObject({ state: 'AUTORIZADO', statusCheckAt: null });
    // The processor's codes as the authorization would have given them.
    expect(byId.get(approvedId)!.processorResponse).toStrictEqual({
      authorization_code: '123456',
      brand_transaction_id: '401234567890123',
      result_message: { code: '00', description: 'Aprobado' },
    });
    expect(byId.get(approvedId)!.lifecycle.map((entry) => entry.state)).toEqual(['REGISTRADO', 'PENDIENTE', 'AUTORIZADO']);
    expect(byId.get(lostId)).toMatchObject({ state: 'DENEGADO', statusCheckAt: null });
  });
});

describe('3-D Secure', () => {
  const setThreeDs = (mode: 'NEVER' | 'ALWAYS' | 'WHEN_REQUIRED') =>
    updateThreeDs(fixture.db.prisma, ALL, { merchantCode: fixture.merchant.code, setting: { mode, overAmount: null } });
  afterAll(() => setThreeDs('WHEN_REQUIRED'));

  it('ALWAYS: a frictionless authentication goes with the authorization and is noted, never its value', async () => {
    await setThreeDs('ALWAYS');
    const { reply, rows } = await charge('4111111111111111');
    expect(reply.transaction.state).toBe('AUTORIZADO');
    expect(reply.transaction.additional_fields).toEqual({
      processor: 'sandbox-acquirer-a',
      attempt: 1,
      three_ds: { version: '2.2.0', status: 'Y', eci: '05', challenged: false },
    });
    // The stored row and its events keep the public result only: the authentication value (20
    // random bytes, 28 characters of base64) is in no column and no event.
    const stored = await fixture.db.prisma.transaction.findUniqueOrThrow({ where: { id: rows[0]!.id } });
    expect(stored.threeDs).toStrictEqual({ version: '2.2.0', status: 'Y', eci: '05', challenged: false });
    const events = await fixture.db.prisma.outboxEvent.findMany({ where: { aggregateId: rows[0]!.id } });
    expect(events).toHaveLength(3);
    const everything = JSON.stringify([stored, events, reply], (_key, value: unknown) =>
      typeof value === 'bigint' ? value.toString() : value,
    );
    expect(everything).toContain('"challenged":false');
    expect(everything).not.toMatch(/[A-Za-z0-9+/]{27}=/);
    expect(everything).not.toMatch(/authenticationValue|authentication_value/);
  });

  it('ALWAYS: a challenge waits PENDIENTE at the challenge page with the card vaulted; the right code authorizes it', async () => {
    await setThreeDs('ALWAYS');
    const { reply, operationNumber } = await charge('4000000000003220');
    expect(reply.transaction.state).toBe('PENDIENTE');
    expect(reply.transaction.continue_url).toMatch(/\/pay\/[A-Za-z0-9_-]+$/);
    expect(reply.transaction.lifecycle.map((entry) => entry.state)).toEqual(['REGISTRADO', 'PENDIENTE']);
    const id = reply.transaction.transaction_id;
    expect(await fixture.db.prisma.cardVaultEntry.count({ where: { transactionId: id } })).toBe(1);
    const answer = verifyChallenge({ pan: '4000000000003220', code: '123456', triesSoFar: 0 });
    if (answer.kind !== 'done') throw new Error('the sandbox code passes');
    const completed = await completeChallenge(fixture.db.prisma, id, answer.result);
    expect(completed.state).toBe('AUTORIZADO');
    const rows = await attempts(operationNumber);
    expect(rows.map((row) => [row.attempt, row.state, row.connectorId])).toEqual([[1, 'AUTORIZADO', 'sandbox-acquirer-a']]);
    expect(rows[0]!.lifecycle.map((entry) => entry.state)).toEqual(['REGISTRADO', 'PENDIENTE', 'AUTORIZADO']);
    expect(rows[0]!.additionalFields).toMatchObject({ three_ds: { status: 'Y', challenged: true } });
    expect(await fixture.db.prisma.cardVaultEntry.count({ where: { transactionId: id } })).toBe(0);
  });

  it('DELETE of a payment waiting for its challenge cancels it and drops its card from the vault', async () => {
    await setThreeDs('ALWAYS');
    const { reply, operationNumber } = await charge('4000000000003220');
    const id = reply.transaction.transaction_id;
    const cancelled = await cancelOperation(fixture.db.prisma, fixture.merchant, operationNumber);
    expect(cancelled.operation.state).toBe('CANCELADO');
    expect(await fixture.db.prisma.cardVaultEntry.count({ where: { transactionId: id } })).toBe(0);
  });

  it('a challenge that cannot be passed declines the payment without a processor', async () => {
    await setThreeDs('ALWAYS');
    const { reply, operationNumber } = await charge('4000000000003253');
    const answer = verifyChallenge({ pan: '4000000000003253', code: '123456', triesSoFar: 0 });
    if (answer.kind !== 'done') throw new Error('this card always fails');
    expect((await completeChallenge(fixture.db.prisma, reply.transaction.transaction_id, answer.result)).state).toBe('DENEGADO');
    const rows = await attempts(operationNumber);
    expect(rows.map((row) => [row.state, row.latencyMs])).toEqual([['DENEGADO', 0]]);
  });

  it('WHEN_REQUIRED: an issuer asking for authentication (65) steps up, and the same processor approves', async () => {
    await setThreeDs('WHEN_REQUIRED');
    const { rows } = await charge('4000000000003261');
    expect(rows.map((row) => [row.attempt, row.state, row.connectorId, row.declineClass])).toEqual([
      [1, 'DENEGADO', 'sandbox-acquirer-a', 'sca_required'],
      [2, 'AUTORIZADO', 'sandbox-acquirer-a', null],
    ]);
    expect(rows[1]!.additionalFields).toMatchObject({ three_ds: { status: 'Y', challenged: false } });
  });

  it('NEVER: a request for authentication is a decline', async () => {
    await setThreeDs('NEVER');
    const { rows } = await charge('4000000000003261');
    expect(rows.map((row) => [row.state, row.declineClass])).toEqual([['DENEGADO', 'sca_required']]);
  });
});

describe('a charge written once (docs/DECISIONS.md, "A charge written once")', () => {
  // Every UPDATE of a transaction row, by id: a charge's transactions are inserted whole.
  beforeAll(async () => {
    const { prisma } = fixture.db;
    await prisma.$executeRawUnsafe('CREATE TABLE test_updated_transactions (id uuid NOT NULL)');
    await prisma.$executeRawUnsafe(`CREATE FUNCTION test_count_update() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO test_updated_transactions VALUES (NEW.id); RETURN NULL; END $$`);
    await prisma.$executeRawUnsafe(
      'CREATE TRIGGER test_count_update AFTER UPDATE ON transactions FOR EACH ROW EXECUTE FUNCTION test_count_update()',
    );
  });
  afterAll(() => fixture.db.prisma.$executeRawUnsafe('DROP TRIGGER test_count_update ON transactions'));

  const updatesOf = async (ids: string[]) =>
    (
      await fixture.db.prisma.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM test_updated_transactions WHERE id = ANY(${ids}::uuid[])`
    )[0]!.n;
  const claimsOf = async (operationNumber: string) =>
    (
      await fixture.db.prisma.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM charge_claims c JOIN operations o ON o.id = c.operation_id
      WHERE o.merchant_operation_number = ${operationNumber}`
    )[0]!.n;

  it('an approval, a failover and a challenge insert each attempt whole and leave no claim', async () => {
    const approved = await charge('4111111111111111');
    const failedOver = await charge('4000000000008013');
    expect(failedOver.rows.map((row) => row.state)).toEqual(['DENEGADO', 'AUTORIZADO']);
    for (const { rows, operationNumber } of [approved, failedOver]) {
      expect(await updatesOf(rows.map((row) => row.id))).toBe(0);
      expect(await claimsOf(operationNumber)).toBe(0);
      for (const row of rows) expect(row.lifecycle.map((entry) => entry.state)).toEqual(['REGISTRADO', 'PENDIENTE', row.state]);
    }
    // Each attempt's events: its REGISTRADO one (written with its claim) and one per move after it.
    const events = await fixture.db.prisma.outboxEvent.groupBy({
      by: ['aggregateId'],
      where: { aggregateId: { in: failedOver.rows.map((row) => row.id) } },
      _count: { _all: true },
    });
    expect(events.map((group) => group._count._all)).toEqual([3, 3]);
  });

  it('a payment waiting for its challenge is written PENDIENTE with its card vaulted in one statement; its completion is its one update', async () => {
    await updateThreeDs(fixture.db.prisma, ALL, {
      merchantCode: fixture.merchant.code,
      setting: { mode: 'ALWAYS', overAmount: null },
    });
    try {
      const { reply, operationNumber } = await charge('4000000000003220');
      const id = reply.transaction.transaction_id;
      expect(reply.transaction.state).toBe('PENDIENTE');
      expect(await fixture.db.prisma.cardVaultEntry.count({ where: { transactionId: id } })).toBe(1);
      expect(await claimsOf(operationNumber)).toBe(0);
      expect(await updatesOf([id])).toBe(0);
      const answer = verifyChallenge({ pan: '4000000000003220', code: '123456', triesSoFar: 0 });
      if (answer.kind !== 'done') throw new Error('the sandbox code passes');
      expect((await completeChallenge(fixture.db.prisma, id, answer.result)).state).toBe('AUTORIZADO');
      expect(await updatesOf([id])).toBe(1);
    } finally {
      await updateThreeDs(fixture.db.prisma, ALL, {
        merchantCode: fixture.merchant.code,
        setting: { mode: 'WHEN_REQUIRED', overAmount: null },
      });
    }
  });
});

describe("the operation's merchant, without a foreign key (operations_merchant_unlocked migration)", () => {
  it('a charge for a merchant that does not exist writes nothing', async () => {
    const ghost = { ...fixture.merchant, id: randomUUID(), code: 'GHOST' };
    await expect(claim(ghost, number())).rejects.toThrow(`no merchant ${ghost.id} to charge for`);
    expect(await fixture.db.prisma.operation.count({ where: { merchantId: ghost.id } })).toBe(0);
    expect(await fixture.db.prisma.transaction.count({ where: { merchantId: ghost.id } })).toBe(0);
    expect(await fixture.db.prisma.chargeClaim.count({ where: { merchantId: ghost.id } })).toBe(0);
  });

  it('a merchant with operations can be neither deleted nor given another id; one without them can', async () => {
    const other = await testMerchant(fixture.db.prisma, 'KEEPS');
    const { outcome } = await claim(other, number());
    expect(outcome).toEqual({ kind: 'created', attempt: 1 });
    await expect(fixture.db.prisma.$executeRaw`DELETE FROM merchants WHERE id = ${other.id}::uuid`).rejects.toThrow(
      `merchant ${other.id} still has operations`,
    );
    await expect(
      fixture.db.prisma.$executeRaw`UPDATE merchants SET id = ${randomUUID()}::uuid WHERE id = ${other.id}::uuid`,
    ).rejects.toThrow(`merchant ${other.id} still has operations`);
    expect(await fixture.db.prisma.merchant.count({ where: { id: other.id } })).toBe(1);
    expect(await fixture.db.prisma.$executeRaw`UPDATE merchants SET name = 'Renamed' WHERE id = ${other.id}::uuid`).toBe(1);
    const empty = await testMerchant(fixture.db.prisma, 'EMPTY');
    expect(await fixture.db.prisma.$executeRaw`DELETE FROM merchants WHERE id = ${empty.id}::uuid`).toBe(1);
  });
});
