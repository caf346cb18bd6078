import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrismaClient } from '@/generated/prisma/client';
import { openDatabase, type DatabaseHandle } from '@/server/platform/db/adapter';
import { deployMigrations } from '@/server/platform/db/migrations';
import type { Db } from '@/server/platform/db/client';
import type { ActingMerchant } from '@/server/modules/access/acting-merchant';
import type { ChargeResponse } from '@/server/core/interface/transaction';
import { STATE_REASONS } from '@/server/core/domain/state-reasons';
import {
  additionalFieldsOf,
  attemptRows,
  newAttempt,
  outcomeColumns,
  settledMoves,
  settledRow,
  type Attempt,
  type AttemptRoute,
  type ChargeBase,
  type Settlement,
} from '@/server/modules/charges/attempts/attempt-rows';
import { claimCharge, type ClaimOutcome, type ClaimRows } from '@/server/modules/charges/attempts/claim-charge';
import { recordAttempt } from '@/server/modules/charges/attempts/record-attempt';
import { replyOf } from '@/server/modules/charges/attempts/stored-answer';
import { asJson } from '@/server/modules/charges/attempts/transaction-columns';
import { chargeRequest, testMerchant } from '@tests/support/procedure-test-support';

// Two requests claiming one operation on two PostgreSQL sessions at once (docs/design/
// charge-written-once.md 3.1-3.3). The claim statement's own snapshot is taken before it waits
// on the operation's row lock, so it cannot see what the request holding that lock commits.
// The statement reads the latest attempt through charge_attempt_latest only once it holds the
// lock, with a snapshot of its own: it sees the other request's claim, or the transaction its
// outcome wrote and the claim it deleted (which then no unique key would catch), and never
// creates a second attempt. Each waiting claim is checked to be blocked by the other session before that
// session commits, so the waiting statement's snapshot does predate the commit.
let handles: DatabaseHandle[];
let one: PrismaClient;
let two: PrismaClient;
let merchant: ActingMerchant;
let run: string;
let sequence = 0;

const ROUTE: AttemptRoute = { connectorId: 'sandbox-acquirer-a', routing: { rule_version: null, route: null, reason: 'test' } };
const HASH = 'hash-first';
const OTHER_HASH = 'hash-other';

beforeAll(async () => {
  handles = await Promise.all([1, 2].map(() => openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, pgliteDir: '' })));
  await deployMigrations(handles[0]!.factory);
  [one, two] = handles.map((handle) => new PrismaClient({ adapter: handle.factory })) as [PrismaClient, PrismaClient];
  run = Date.now().toString(36).toUpperCase();
  merchant = await testMerchant(one, `RACE${run}`, 'Claim race');
  await Promise.all([one.$queryRaw`SELECT 1`, two.$queryRaw`SELECT 1`]);
});

afterAll(async () => {
  if (merchant) {
    await one.$transaction([
      one.$executeRaw`DELETE FROM outbox_events WHERE merchant_id = ${merchant.id}::uuid`,
      one.$executeRaw`DELETE FROM lifecycle_entries WHERE transaction_id IN (SELECT id FROM transactions WHERE merchant_id = ${merchant.id}::uuid)`,
      one.$executeRaw`DELETE FROM transactions WHERE merchant_id = ${merchant.id}::uuid`,
      one.$executeRaw`DELETE FROM charge_claims WHERE merchant_id = ${merchant.id}::uuid`,
      one.$executeRaw`DELETE FROM operations WHERE merchant_id = ${merchant.id}::uuid`,
      one.$executeRaw`DELETE FROM merchants WHERE id = ${merchant.id}::uuid`,
    ]);
  }
  await Promise.all([one?.$disconnect(), two?.$disconnect()]);
  await Promise.all(handles.map((handle) => handle.close()));
});

const nextNumber = () => `race-${run}-${(sequence += 1)}`;

/** A charge request of operation `number`; `requestHash` stands for its body's keyed hash. */
function chargeOf(number: string, requestHash: string): ChargeBase {
  return {
    merchant,
    body: chargeRequest(merchant.code, number, 'CARD'),
    requestHash,
    card: null,
    methodDetails: {},
    authentication: null,
    captureMode: 'AUTOMATIC',
    cardSaveId: null,
    storedCredential: null,
  };
}

type FirstAttempt = { attempt: Attempt; rows: ClaimRows };

/** The request's first attempt and the rows its claim writes, as authorize-charge builds them. */
function firstAttempt(base: ChargeBase): FirstAttempt {
  const attempt = newAttempt(base, ROUTE, 0, new Date());
  return { attempt, rows: attemptRows(base, attempt, new Date(Date.now() + 60_000)) };
}

function claim(db: Db, base: ChargeBase, first: FirstAttempt = firstAttempt(base)): Promise<ClaimOutcome> {
  return claimCharge(
    db,
    { merchantId: merchant.id, merchantOperationNumber: base.body.merchant_operation_number, requestHash: base.requestHash },
    first.rows,
  );
}

/** Claims the request's first attempt and writes its approval as the request path does; returns the reply it stored. */
async function claimAndApprove(db: Db, base: ChargeBase): Promise<ChargeResponse> {
  const first = firstAttempt(base);
  expect(await claim(db, base, first)).toEqual({ kind: 'created', attempt: 1 });
  const attempt: Attempt = {
    ...first.attempt,
    number: 1,
    written: 'claim',
    row: { ...first.attempt.row, additionalFields: additionalFieldsOf(base, ROUTE.connectorId, 1) },
  };
  const decidedAt = new Date();
  const settlement: Settlement = {
    result: {
      outcome: 'approved',
      stateReason: STATE_REASONS.approved,
      processorResponse: {
        authorization_code: 'A1B2C3',
        brand_transaction_id: 'BT-1',
        result_message: { code: '00', description: 'Aprobado' },
      },
      card: null,
      methodDetails: {},
      processorReference: 'ref-1',
    },
    sentAt: decidedAt,
    decidedAt,
    latencyMs: 12,
    declineClass: null,
    statusCheckAt: null,
    threeDs: null,
  };
  const row = settledRow(attempt, settlement);
  const reply = replyOf(merchant, base.body, row);
  const moves = settledMoves(base, attempt, row);
  const recorded = await recordAttempt(db, {
    transactionId: attempt.row.id,
    from: 'claim',
    columns: outcomeColumns(base, attempt, row, settlement, reply),
    lifecycle: moves.lifecycle,
    events: moves.events,
    next: null,
  });
  expect(recorded).toBe(true);
  return reply;
}

/** What the claim statement writes, by hand: the operation created or locked, and its attempt 1 in charge_claims only. */
async function claimRowOnly(db: Db, base: ChargeBase): Promise<void> {
  const { attempt, rows } = firstAttempt(base);
  const attemptRow = asJson({ ...rows.transaction, additional_fields: additionalFieldsOf(base, ROUTE.connectorId, 1) });
  const written = await db.$executeRaw`
    WITH operation AS (
      INSERT INTO operations (id, merchant_id, merchant_operation_number, created_at)
      VALUES (gen_random_uuid(), ${merchant.id}::uuid, ${base.body.merchant_operation_number}, now())
      ON CONFLICT (merchant_id, merchant_operation_number)
      DO UPDATE SET merchant_operation_number = EXCLUDED.merchant_operation_number
      RETURNING id
    )
    INSERT INTO charge_claims (transaction_id, operation_id, attempt, merchant_id, connector_id, request_hash,
                               attempt_row, claimed_at, status_check_at)
    SELECT ${attempt.row.id}::uuid, o.id, 1, ${merchant.id}::uuid, ${ROUTE.connectorId}, ${base.requestHash},
           ${attemptRow}::jsonb, ${attempt.row.createdAt}::timestamptz, ${rows.transaction.status_check_at}::timestamptz
    FROM operation o`;
  expect(written).toBe(1);
}

/** How many sessions PostgreSQL says `pid` blocks. */
async function blockedBy(pid: number): Promise<number> {
  const [row] = await one.$queryRaw<{ blocked: number }[]>`
    SELECT count(*)::int AS blocked FROM pg_stat_activity WHERE ${pid}::int = ANY(pg_blocking_pids(pid))`;
  return row?.blocked ?? 0;
}

/** Whether `pending` answers (or fails) within `ms`. */
function answersWithin(pending: Promise<unknown>, ms: number): Promise<boolean> {
  return Promise.race([
    pending.then(
      () => true,
      () => true,
    ),
    sleep(ms, false),
  ]);
}

/**
 * Runs `held` in a transaction of session S1 (`one`) and, while it is uncommitted, the claim of
 * `base` on session S2 (`two`): S2 must be blocked by S1 and still unanswered 300 ms later. S1
 * then commits; the result is S2's answer.
 */
async function claimBehind(held: (tx: Db) => Promise<void>, base: ChargeBase): Promise<ClaimOutcome> {
  let holding!: (pid: number) => void;
  let commit!: () => void;
  const pid = new Promise<number>((resolve) => (holding = resolve));
  const committing = new Promise<void>((resolve) => (commit = resolve));
  const s1 = one.$transaction(
    async (tx) => {
      const [backend] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
      await held(tx as unknown as Db);
      holding(backend!.pid);
      await committing;
    },
    { maxWait: 10_000, timeout: 60_000 },
  );
  const s1Pid = await Promise.race([pid, s1.then(() => Promise.reject(new Error('S1 committed before it held the lock')))]);
  const s2 = claim(two, base);
  s2.catch(() => undefined);
  try {
    await expect.poll(() => blockedBy(s1Pid), { timeout: 10_000 }).toBe(1);
    expect(await answersWithin(s2, 300)).toBe(false);
  } finally {
    commit();
    await s1;
  }
  return s2;
}

type Stored = {
  transactions: { attempt: number; state: string; requestHash: string; authorizationReply: unknown }[];
  claims: { attempt: number; requestHash: string }[];
};

/** The operation's transactions and charge_claims rows, as stored. */
async function storedOf(number: string): Promise<Stored> {
  const operation = await one.operation.findUniqueOrThrow({
    where: { merchantId_merchantOperationNumber: { merchantId: merchant.id, merchantOperationNumber: number } },
    select: {
      id: true,
      transactions: {
        orderBy: { attempt: 'asc' },
        select: { attempt: true, state: true, requestHash: true, authorizationReply: true },
      },
    },
  });
  const claims = await one.$queryRaw<Stored['claims']>`
    SELECT attempt, request_hash AS "requestHash" FROM charge_claims WHERE operation_id = ${operation.id}::uuid`;
  return { transactions: operation.transactions, claims };
}

/** Makes the operation beforehand when the case asks for one that exists: S2 then waits on its row lock, not on S1's insert. */
async function operationFor(existing: boolean): Promise<string> {
  const number = nextNumber();
  if (existing) await one.operation.create({ data: { merchantId: merchant.id, merchantOperationNumber: number } });
  return number;
}

describe('two connections claiming one new operation at once', () => {
  it.each([
    { requests: 'identical', secondHash: HASH, loser: 'in_flight' },
    { requests: 'different', secondHash: OTHER_HASH, loser: 'conflict' },
  ] as const)('$requests requests, 10 rounds: one creates attempt 1, the other is $loser', async ({ secondHash, loser }) => {
    for (let round = 0; round < 10; round += 1) {
      const number = nextNumber();
      const outcomes = await Promise.all([claim(one, chargeOf(number, HASH)), claim(two, chargeOf(number, secondHash))]);
      const winner = outcomes.findIndex((outcome) => outcome.kind === 'created');
      expect(outcomes[winner]).toEqual({ kind: 'created', attempt: 1 });
      expect(outcomes[1 - winner]).toEqual({ kind: loser });
      expect(await storedOf(number)).toEqual({
        transactions: [],
        claims: [{ attempt: 1, requestHash: winner === 0 ? HASH : secondHash }],
      });
    }
  });
});

describe.each([
  { operation: 'a new operation', existing: false },
  { operation: 'an existing operation', existing: true },
])('a claim of $operation waiting behind another session', ({ existing }) => {
  it('answers replay with the stored reply when the other committed the identical request and its approval', async () => {
    const number = await operationFor(existing);
    let approved: ChargeResponse | undefined;
    const outcome = await claimBehind(
      async (tx) => {
        approved = await claimAndApprove(tx, chargeOf(number, HASH));
      },
      chargeOf(number, HASH),
    );
    const stored = await storedOf(number);
    expect(stored.transactions).toEqual([
      { attempt: 1, state: 'AUTORIZADO', requestHash: HASH, authorizationReply: JSON.parse(asJson(approved)) as unknown },
    ]);
    expect(stored.claims).toEqual([]);
    expect(outcome).toEqual({ kind: 'replay', reply: stored.transactions[0]!.authorizationReply });
  });

  it('answers conflict when the other committed a different request and its approval', async () => {
    const number = await operationFor(existing);
    const outcome = await claimBehind(
      async (tx) => {
        await claimAndApprove(tx, chargeOf(number, HASH));
      },
      chargeOf(number, OTHER_HASH),
    );
    expect(outcome).toEqual({ kind: 'conflict' });
    const stored = await storedOf(number);
    expect(stored.transactions.map(({ attempt, state, requestHash }) => ({ attempt, state, requestHash }))).toEqual([
      { attempt: 1, state: 'AUTORIZADO', requestHash: HASH },
    ]);
    expect(stored.claims).toEqual([]);
  });

  it('answers in_flight and writes no transaction when the other committed a charge_claims row of the identical request', async () => {
    const number = await operationFor(existing);
    const outcome = await claimBehind((tx) => claimRowOnly(tx, chargeOf(number, HASH)), chargeOf(number, HASH));
    expect(outcome).toEqual({ kind: 'in_flight' });
    expect(await storedOf(number)).toEqual({ transactions: [], claims: [{ attempt: 1, requestHash: HASH }] });
  });

  it('answers conflict and writes no transaction when the other committed a charge_claims row of a different request', async () => {
    const number = await operationFor(existing);
    const outcome = await claimBehind((tx) => claimRowOnly(tx, chargeOf(number, HASH)), chargeOf(number, OTHER_HASH));
    expect(outcome).toEqual({ kind: 'conflict' });
    expect(await storedOf(number)).toEqual({ transactions: [], claims: [{ attempt: 1, requestHash: HASH }] });
  });
});
