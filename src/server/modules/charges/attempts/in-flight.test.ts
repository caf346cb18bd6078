import { describe, expect, it, vi } from 'vitest';
import { chargeRequest, refusal, withTestMerchant } from '@tests/support/procedure-test-support';
import { claimAttempt } from '@tests/support/claim-attempt';
import { registryFor, sandboxStoreFor } from '@/server/payments';
import { toAppError } from '@/server/api/errors/to-app-error';
import { getTransaction } from '@/server/modules/charges/get-transaction';
import { cancelOperation } from '@/server/modules/charges/cancel-operation';
import { capturePayment } from '@/server/modules/charges/capture-payment';
import { MAX_CHECKS, syncStatuses } from '@/server/modules/charges/sync-status';
import { authorizeCharge } from '@/server/modules/charges/authorize-charge';
import { requestRefunds } from '@/server/modules/refunds/request-refunds';
import { inspectOperation } from '@/server/modules/console/inspect-operation';
import { operationDetail } from '@/server/modules/console/operation-detail';
import { cancelFromConsole } from '@/server/modules/console/console-actions';
import { connectorStats } from '@/server/modules/processors/health/connector-stats';
import { countOperations, listOperations, toOperationRowView } from '@/server/modules/console/list-operations';
import { STATE_REASONS } from '@/server/core/domain/state-reasons';
import { awaitAnswer } from './stored-answer';
import { DEAD_CLAIMS_PER_VACUUM, vacuumClaims } from './in-flight';

// An attempt in flight is a claim (charge_claims), not a transaction row, once a charge is
// written once (docs/DECISIONS.md, "A charge written once"). Everything that shows or acts on an
// operation reads it as the REGISTRADO transaction it stands for, exactly as it read that row;
// the status sync settles it into its transaction.
const fixture = withTestMerchant('INFLIGHT');
let sequence = 0;
const number = () => `inflight-${(sequence += 1)}`;
const prisma = () => fixture.db.prisma;
const ALL = { kind: 'all' } as const;

describe('an attempt in flight is read as its REGISTRADO transaction', () => {
  it('GET shows it: REGISTRADO, one lifecycle entry, no answer yet', async () => {
    const operationNumber = number();
    const claim = await claimAttempt(prisma(), fixture.merchant, operationNumber);
    const answer = await getTransaction(prisma(), fixture.merchant, operationNumber, claim.transactionId);
    expect(answer.operation.state).toBe('REGISTRADO');
    expect(answer.operation.transactions).toHaveLength(1);
    const [shown] = answer.operation.transactions;
    expect(shown).toMatchObject({
      transaction_id: claim.transactionId,
      state: 'REGISTRADO',
      amount: '15000',
      currency: '604',
      processor_response: null,
      additional_fields: { processor: 'sandbox-acquirer-a', attempt: 1 },
    });
    expect(shown!.lifecycle.map((entry) => entry.state)).toEqual(['REGISTRADO']);
  });

  it('after a written attempt, the claim is the latest: GET lists both in attempt order', async () => {
    const operationNumber = number();
    await authorizeCharge(
      prisma(),
      fixture.merchant,
      chargeRequest(fixture.merchant.code, operationNumber, 'CARD', { pan: '4000000000000002' }),
    );
    const claim = await claimAttempt(prisma(), fixture.merchant, operationNumber);
    expect(claim.attempt).toBe(2);
    const answer = await getTransaction(prisma(), fixture.merchant, operationNumber, claim.transactionId);
    expect(answer.operation.state).toBe('REGISTRADO');
    expect(answer.operation.transactions.map((row) => [row.state, row.additional_fields?.attempt])).toEqual([
      ['DENEGADO', 1],
      ['REGISTRADO', 2],
    ]);
  });

  it('DELETE, capture and a refund are refused as for a REGISTRADO row, and change nothing', async () => {
    const operationNumber = number();
    const claim = await claimAttempt(prisma(), fixture.merchant, operationNumber, { captureMode: 'MANUAL' });
    const failure = async (run: () => Promise<unknown>) => {
      try {
        await run();
        return null;
      } catch (error) {
        const app = toAppError(error);
        return [app.kind, app.message];
      }
    };
    expect(await failure(() => cancelOperation(prisma(), fixture.merchant, operationNumber))).toEqual([
      'STATE_CONFLICT',
      'The processor has not answered this payment yet; try again once it has.',
    ]);
    expect(await failure(() => capturePayment(prisma(), fixture.merchant, operationNumber, null))).toEqual([
      'STATE_CONFLICT',
      expect.stringContaining('REGISTRADO'),
    ]);
    const refund = {
      type: 'TOTAL' as const,
      merchant_operation_number: null,
      transaction_id: claim.transactionId,
      refund_amount: '15000',
      additional_fields: { canal: 'WEB', reason: 'test', description: 'a refund of an attempt in flight' },
    };
    expect(await failure(() => requestRefunds(prisma(), fixture.merchant, { operations: [refund] }))).toEqual([
      'STATE_CONFLICT',
      'only LIQUIDADO transactions can be refunded (state is REGISTRADO)',
    ]);
    expect(await prisma().transaction.count({ where: { operationId: claim.operationId } })).toBe(0);
    expect(await prisma().refund.count({ where: { operationId: claim.operationId } })).toBe(0);
    expect(await prisma().chargeClaim.count({ where: { operationId: claim.operationId } })).toBe(1);
  });

  it('the console finds it by its id: its detail, a cancel refused as for the row, support inspection', async () => {
    const operationNumber = number();
    const claim = await claimAttempt(prisma(), fixture.merchant, operationNumber);
    const detail = await operationDetail(prisma(), ALL, claim.transactionId);
    expect(detail.state).toBe('REGISTRADO');
    expect(detail.transactions.map((row) => row.transaction_id)).toEqual([claim.transactionId]);
    expect(await refusal(() => cancelFromConsole(prisma(), ALL, claim.transactionId, 'ops@test.pe'))).toBe('STATE_CONFLICT');
    const inspected = await inspectOperation(prisma(), {
      merchantCode: fixture.merchant.code,
      merchantOperationNumber: operationNumber,
    });
    const transactions = inspected.transactions as {
      id: string;
      state: string;
      statusCheckAt: string | null;
      lifecycle: { state: string }[];
    }[];
    expect(
      transactions.map((row) => [row.id, row.state, row.statusCheckAt !== null, row.lifecycle.map((entry) => entry.state)]),
    ).toEqual([[claim.transactionId, 'REGISTRADO', true, ['REGISTRADO']]]);
    expect((inspected.events as { type: string }[]).map((event) => event.type)).toEqual(['transaction.registered']);
  });

  it("is listed under the console's REGISTRADO filter, found by its search, and counted", async () => {
    const operationNumber = number();
    const claim = await claimAttempt(prisma(), fixture.merchant, operationNumber);
    const scope = { kind: 'one', merchantId: fixture.merchant.id } as const;
    const listed = await listOperations(prisma(), scope, { state: 'REGISTRADO', limit: 200 });
    const row = listed.rows.find((each) => each.id === claim.transactionId);
    expect(row && toOperationRowView(row)).toMatchObject({
      transactionId: claim.transactionId,
      merchantCode: fixture.merchant.code,
      merchantOperationNumber: operationNumber,
      method: 'CARD',
      state: 'REGISTRADO',
      amount: '15000',
      currency: '604',
      payerEmail: 'ana.quispe@example.pe',
    });
    const searched = await listOperations(prisma(), scope, { state: 'REGISTRADO', search: operationNumber });
    expect(searched.rows.map((each) => each.id)).toEqual([claim.transactionId]);
    expect(await countOperations(prisma(), scope, { state: 'REGISTRADO', search: claim.transactionId }, 100)).toEqual({
      count: 1,
      more: false,
    });
    const elsewhere = await listOperations(prisma(), scope, { state: 'AUTORIZADO', search: operationNumber });
    expect(elsewhere.rows).toEqual([]);
  });

  it('counts as a pending attempt of its connector', async () => {
    const scope = { since: new Date(Date.now() - 60_000), merchantIds: [fixture.merchant.id] };
    const unbranded = async () => {
      const row = (await connectorStats(prisma(), scope)).find((stat) => stat.brand === null);
      return {
        attempts: row?.attempts ?? 0,
        payments: row?.payments ?? 0,
        pending: row?.pendingPayments ?? 0,
        decided: row?.decidedPayments ?? 0,
      };
    };
    const before = await unbranded();
    const claim = await claimAttempt(prisma(), fixture.merchant, number());
    expect(await unbranded()).toEqual({
      attempts: before.attempts + 1,
      payments: before.payments + 1,
      pending: before.pending + 1,
      decided: before.decided,
    });
    await prisma().chargeClaim.delete({ where: { transactionId: claim.transactionId } });
  });

  it("an identical request waiting for the answer is not given an earlier attempt's reply", async () => {
    const operationNumber = number();
    const body = chargeRequest(fixture.merchant.code, operationNumber, 'CARD', { pan: '4000000000000002' });
    const declined = await authorizeCharge(prisma(), fixture.merchant, body);
    expect(declined.transaction.state).toBe('DENEGADO');
    const claim = await claimAttempt(prisma(), fixture.merchant, operationNumber);
    const answer = await awaitAnswer(prisma(), fixture.merchant, body, 120);
    expect(answer.transaction).toMatchObject({ transaction_id: claim.transactionId, state: 'REGISTRADO' });
  });
});

describe('the status sync settles a claim into its transaction, written once', () => {
  const due = () => new Date(Date.now() - 1000);

  it('approved where the processor approved it, declined where it never arrived; each with its lifecycle and events', async () => {
    const approved = await claimAttempt(prisma(), fixture.merchant, number(), { statusCheckAt: due() });
    const lost = await claimAttempt(prisma(), fixture.merchant, number(), { statusCheckAt: due() });
    await sandboxStoreFor(prisma()).record('sandbox-acquirer-a', approved.transactionId, {
      outcome: 'approved',
      authorizationCode: '123456',
      brandTransactionId: '401234567890123',
    });
    expect(await syncStatuses(prisma())).toBeGreaterThanOrEqual(2);
    const rows = await prisma().transaction.findMany({
      where: { id: { in: [approved.transactionId, lost.transactionId] } },
      select: {
        id: true,
        attempt: true,
        state: true,
        statusCheckAt: true,
        statusChecks: true,
        requestHash: true,
        processorResponse: true,
        additionalFields: true,
        lifecycle: { select: { state: true }, orderBy: { id: 'asc' } },
      },
    });
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(approved.transactionId)).toMatchObject({
      attempt: 1,
      state: 'AUTORIZADO',
      statusCheckAt: null,
      statusChecks: 1,
      requestHash: approved.requestHash,
      additionalFields: { processor: 'sandbox-acquirer-a', attempt: 1 },
    });
    expect(byId.get(approved.transactionId)!.processorResponse).toStrictEqual({
      authorization_code: '123456',
      brand_transaction_id: '401234567890123',
      result_message: { code: '00', description: 'Aprobado' },
    });
    expect(byId.get(approved.transactionId)!.lifecycle.map((entry) => entry.state)).toEqual([
      'REGISTRADO',
      'PENDIENTE',
      'AUTORIZADO',
    ]);
    expect(byId.get(lost.transactionId)).toMatchObject({ state: 'DENEGADO', statusCheckAt: null });
    expect(byId.get(lost.transactionId)!.lifecycle.map((entry) => entry.state)).toEqual(['REGISTRADO', 'PENDIENTE', 'DENEGADO']);
    const events = await prisma().outboxEvent.findMany({
      where: { aggregateId: approved.transactionId },
      orderBy: { seq: 'asc' },
      select: { type: true, payload: true },
    });
    expect(events.map((event) => event.type)).toEqual([
      'transaction.registered',
      'transaction.pending',
      'transaction.authorized',
    ]);
    const shown = events.map((event) => (event.payload as { transaction: { state: string; lifecycle: unknown[] } }).transaction);
    expect(shown.map((transaction) => [transaction.state, transaction.lifecycle.length])).toEqual([
      ['REGISTRADO', 1],
      ['PENDIENTE', 2],
      ['AUTORIZADO', 3],
    ]);
    expect(
      await prisma().chargeClaim.count({ where: { transactionId: { in: [approved.transactionId, lost.transactionId] } } }),
    ).toBe(0);
  });

  /**
   * A claim due for the status sync, `checksMade` checks already made, synced while acquirer A is
   * in outage (its inquiry and its reversal fail): the claim stays, with what the sync left of it.
   */
  async function syncInOutage(checksMade: number) {
    const store = sandboxStoreFor(prisma());
    const claim = await claimAttempt(prisma(), fixture.merchant, number(), { statusCheckAt: due() });
    await prisma().chargeClaim.update({ where: { transactionId: claim.transactionId }, data: { statusChecks: checksMade } });
    await store.setMode('sandbox-acquirer-a', 'outage');
    try {
      const syncedAt = Date.now();
      await syncStatuses(prisma());
      const left = await prisma().chargeClaim.findUniqueOrThrow({ where: { transactionId: claim.transactionId } });
      expect(await prisma().transaction.count({ where: { id: claim.transactionId } })).toBe(0);
      return { statusChecks: left.statusChecks, nextCheckIn: left.statusCheckAt.getTime() - syncedAt };
    } finally {
      await store.setMode('sandbox-acquirer-a', 'normal');
      await prisma().chargeClaim.deleteMany({ where: { transactionId: claim.transactionId } });
    }
  }

  it('an unknown status leaves the claim in flight, asked about again later with backoff', async () => {
    const { statusChecks, nextCheckIn } = await syncInOutage(0);
    expect(statusChecks).toBe(1);
    expect(nextCheckIn).toBeGreaterThanOrEqual(30_000 - 1000);
    expect(nextCheckIn).toBeLessThan(5 * 60_000);
  });

  it('after the last unknown answer, a reversal the processor refuses leaves the claim in doubt, asked about hourly', async () => {
    const { statusChecks, nextCheckIn } = await syncInOutage(MAX_CHECKS - 1);
    expect(statusChecks).toBe(MAX_CHECKS);
    expect(nextCheckIn).toBeGreaterThanOrEqual(60 * 60_000 - 1000);
    expect(nextCheckIn).toBeLessThan(61 * 60_000);
  });

  it('after the last unknown answer, a reversal the processor makes settles the claim as declined, its approval undone', async () => {
    const store = sandboxStoreFor(prisma());
    const claim = await claimAttempt(prisma(), fixture.merchant, number(), { statusCheckAt: due() });
    await store.record('sandbox-acquirer-a', claim.transactionId, {
      outcome: 'approved',
      authorizationCode: '654321',
      brandTransactionId: '409876543210987',
    });
    await prisma().chargeClaim.update({ where: { transactionId: claim.transactionId }, data: { statusChecks: MAX_CHECKS - 1 } });
    // The processor approved it but cannot say so: its inquiry stays unknown, its reversal works.
    const status = vi
      .spyOn(registryFor(prisma()).byId('sandbox-acquirer-a')!, 'status')
      .mockResolvedValue({ outcome: 'unknown' });
    try {
      await syncStatuses(prisma());
    } finally {
      status.mockRestore();
    }
    expect(await store.find('sandbox-acquirer-a', claim.transactionId)).toMatchObject({ outcome: 'approved', voided: true });
    expect(await prisma().chargeClaim.count({ where: { transactionId: claim.transactionId } })).toBe(0);
    const written = await prisma().transaction.findUniqueOrThrow({
      where: { id: claim.transactionId },
      select: {
        state: true,
        stateReason: true,
        statusChecks: true,
        statusCheckAt: true,
        lifecycle: { select: { state: true }, orderBy: { id: 'asc' } },
      },
    });
    expect(written).toEqual({
      state: 'DENEGADO',
      stateReason: STATE_REASONS.unconfirmedVoided,
      statusChecks: MAX_CHECKS,
      statusCheckAt: null,
      lifecycle: [{ state: 'REGISTRADO' }, { state: 'PENDIENTE' }, { state: 'DENEGADO' }],
    });
  });
});

describe('the claims on the embedded database (no autovacuum)', () => {
  /** A thousand claims (`count`) as the claim statement writes them, deleted as their outcomes do. */
  const claimAndSettle = async (db: typeof fixture.db.prisma, requestHash: string, count = 1000) => {
    await db.$executeRaw`
      INSERT INTO charge_claims (transaction_id, operation_id, attempt, merchant_id, connector_id, request_hash,
                                 attempt_row, claimed_at, status_check_at)
      SELECT gen_random_uuid(), gen_random_uuid(), 1, ${fixture.merchant.id}::uuid, 'sandbox-acquirer-a', ${requestHash},
             jsonb_build_object('payer_email', repeat('x', 1000)), now(), now() + interval '1 minute'
      FROM generate_series(1, ${count}::int)`;
    await db.$executeRaw`DELETE FROM charge_claims WHERE request_hash = ${requestHash}`;
    // The statistics that count dead rows are flushed about once a second: now, for the test.
    await db.$executeRaw`SELECT pg_stat_force_next_flush()`;
  };

  it('keep their size through many charges: the vacuum lets each thousand reuse the space of those before', async () => {
    const { prisma: db } = fixture.db;
    const round = async () => {
      await claimAndSettle(db, 'hash');
      expect(await vacuumClaims(db)).toBe(true);
    };
    const size = async () =>
      (await db.$queryRaw<{ bytes: bigint }[]>`SELECT pg_total_relation_size('charge_claims') AS bytes`)[0]!.bytes;
    await round();
    const first = await size();
    for (let again = 0; again < 7; again += 1) await round();
    // Measured: 180 KB after the first thousand, 262 KB after eight; without the vacuum 1.3 MB
    // more with each thousand (10 MB after eight).
    expect(await size()).toBeLessThanOrEqual(2n * first);
  });

  it('are vacuumed once a thousand are dead, not before', async () => {
    const { prisma: db } = fixture.db;
    await claimAndSettle(db, 'before', 10);
    await vacuumClaims(db, 0);
    await claimAndSettle(db, 'few', DEAD_CLAIMS_PER_VACUUM - 1);
    expect(await vacuumClaims(db)).toBe(false);
    await claimAndSettle(db, 'one more', 1);
    expect(await vacuumClaims(db)).toBe(true);
    const [stats] = await db.$queryRaw<
      { dead: number }[]
    >`SELECT pg_stat_get_dead_tuples('charge_claims'::regclass)::int AS dead`;
    expect(stats!.dead).toBe(0);
  });

  it('are read by their indexes after a vacuum that found them empty', async () => {
    const { prisma: db } = fixture.db;
    await claimAndSettle(db, 'empty');
    expect(await vacuumClaims(db)).toBe(true);
    // The plans of the claim's lookups, as a charge's statements make them after the vacuum.
    const plan = async (sql: string) =>
      (await db.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN ${sql}`)).map((row) => row['QUERY PLAN']).join('\n');
    const id = "'00000000-0000-4000-8000-000000000001'::uuid";
    expect(await plan(`SELECT * FROM charge_claims WHERE operation_id = ${id}`)).toContain(
      'Index Scan using charge_claims_operation_id_key',
    );
    expect(await plan(`DELETE FROM charge_claims WHERE transaction_id = ${id}`)).toContain('Index Scan using charge_claims_pkey');
  });
});
