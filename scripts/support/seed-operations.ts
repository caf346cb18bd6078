import type { Db } from '@/server/platform/db/client';
import { REFUND_REASONS, STATE_REASONS } from '@/server/core/domain/state-reasons';

// Bulk seeding for measurements: operations with their transaction, lifecycle and (for some
// settled ones) a refund with its own lifecycle, written by set-based SQL in batches (one
// INSERT ... SELECT per table and batch), so a million operations load in minutes. With several
// merchants the operations are spread unevenly, as real traffic is: merchant i of k gets each
// with probability sqrt((i+1)/k) - sqrt(i/k) (of 8: a third to the first, 6 % to the last). The rows
// look like the service's own: method mix, states reached by allowed moves only, masked card
// fields (no PAN is ever made up), Lima-day settlement, refunds only of refundable methods.
// Seeded transactions carry request_hash 'seed:...', which no real request hash can equal, so
// a retried charge with a seeded operation number is refused as a different request.

export type SeedOptions = {
  /** One or more merchants (ids); operations are spread over them unevenly (see above). */
  merchantIds: string[];
  count: number;
  /** Operation numbers are `${prefix}${n}`; a second run needs another prefix. */
  prefix: string;
  batchSize?: number;
  /** Spread of creation times back from now. */
  days?: number;
  onBatch?: (done: number) => void;
  /** Batches written at once, each on its own connection (PostgreSQL; the embedded database has one). */
  concurrency?: number;
};

const SEED_ROWS = `
CREATE TEMP TABLE seed_rows ON COMMIT DROP AS
WITH drawn AS (
  SELECT n, ($4::uuid[])[1 + floor(power(random(), 2) * cardinality($4::uuid[]))::int] AS merchant_id,
         random() AS m, random() AS s, random() AS r,
         now() - random() * make_interval(days => $3::int) AS created_at,
         (500 + floor(random() * 250000))::bigint AS amount,
         lpad(floor(random() * 10000)::text, 4, '0') AS last4
  FROM generate_series($1::int, $2::int) AS n
), typed AS (
  SELECT *, CASE WHEN m < 0.45 THEN 'CARD' WHEN m < 0.65 THEN 'YAPE' WHEN m < 0.75 THEN 'QR'
                 WHEN m < 0.85 THEN 'BANK_TRANSFER' WHEN m < 0.95 THEN 'PAGOEFECTIVO' ELSE 'CUOTEALO' END AS method
  FROM drawn
), decided AS (
  SELECT *, method IN ('CARD', 'YAPE') AS sync,
         CASE
           WHEN s < 0.70 THEN CASE WHEN created_at < now() - interval '1 day' THEN 'LIQUIDADO' ELSE 'AUTORIZADO' END
           WHEN s < 0.82 THEN 'DENEGADO'
           WHEN s < 0.88 THEN CASE WHEN method IN ('CARD', 'YAPE') THEN 'EXTORNADO' ELSE 'CANCELADO' END
           WHEN method IN ('CARD', 'YAPE') THEN 'DENEGADO'
           WHEN created_at > now() - interval '1 hour' THEN 'PENDIENTE'
           ELSE 'EXPIRADO'
         END AS state
  FROM typed
)
SELECT n, merchant_id, gen_random_uuid() AS op_id, gen_random_uuid() AS tx_id, method, state, amount, last4, created_at,
       created_at + CASE WHEN sync THEN interval '400 milliseconds' ELSE interval '1 minute' * (1 + floor(r * 40)) END AS decided_at,
       date_trunc('day', created_at AT TIME ZONE 'America/Lima') AT TIME ZONE 'America/Lima' + interval '1 day 2 hours' AS settled_at,
       state = 'LIQUIDADO' AND method IN ('CARD', 'YAPE', 'CUOTEALO') AND r < 0.08 AS refunded,
       r
FROM decided`;

const OPERATIONS = `
INSERT INTO operations (id, merchant_id, merchant_operation_number, created_at)
SELECT op_id, merchant_id, $1 || n, created_at FROM seed_rows`;

const TRANSACTIONS = `
INSERT INTO transactions (id, operation_id, attempt, merchant_id, method, amount, currency, state, state_reason,
  card_bin, card_last4, masked_pan, card_brand, card_type, card_country, card_issuer, payer_email,
  method_details, processor_response, request_hash, authorization_reply, refunded_amount, created_at, updated_at)
SELECT tx_id, op_id, 1, merchant_id, method::"PaymentMethod", amount, '604', state::"TransactionState",
  CASE state WHEN 'LIQUIDADO' THEN 'Transacción liquidada' WHEN 'AUTORIZADO' THEN $1
             WHEN 'DENEGADO' THEN 'Fondos insuficientes' WHEN 'EXTORNADO' THEN 'Autorización extornada (seed)'
             WHEN 'CANCELADO' THEN 'Operación cancelada (seed)'
             WHEN 'EXPIRADO' THEN 'El pago no se completó antes de su vencimiento' ELSE '' END,
  CASE WHEN method = 'CARD' THEN '411111' END, CASE WHEN method = 'CARD' THEN last4 END,
  CASE WHEN method = 'CARD' THEN '411111******' || last4 END, CASE WHEN method = 'CARD' THEN 'VISA' END,
  CASE WHEN method = 'CARD' THEN 'CREDIT' END, CASE WHEN method = 'CARD' THEN 'PE' END,
  CASE WHEN method = 'CARD' THEN 'SANDBOX BANK' END,
  'payer' || n || '@example.pe',
  CASE WHEN method = 'CARD' THEN jsonb_build_object('masked_pan', '411111******' || last4, 'brand', 'VISA', 'bin', '411111',
         'last_pan', last4, 'card_type', 'CREDIT', 'card_country', 'PE', 'issuer', 'SANDBOX BANK',
         'installments', jsonb_build_object('plan', 'NONE', 'installment_number', '1'))
       ELSE '{}'::jsonb END,
  CASE WHEN state IN ('AUTORIZADO', 'LIQUIDADO', 'EXTORNADO') AND method IN ('CARD', 'YAPE')
         THEN jsonb_build_object('authorization_code', lpad(floor(r * 1000000)::text, 6, '0'),
              'result_message', jsonb_build_object('code', '00', 'description', 'Aprobado'))
       WHEN state = 'DENEGADO' AND method IN ('CARD', 'YAPE')
         THEN jsonb_build_object('result_message', jsonb_build_object('code', '51', 'description', 'Fondos insuficientes'))
  END,
  'seed:' || op_id, '{}'::jsonb,
  -- The refund REFUNDS writes for this row, unless it is REJECTED (r < 0.072, as there).
  CASE WHEN refunded AND r < 0.072 THEN amount ELSE 0 END, created_at,
  CASE WHEN state = 'LIQUIDADO' THEN settled_at WHEN state = 'PENDIENTE' THEN created_at ELSE decided_at END
FROM seed_rows`;

const LIFECYCLE = `
INSERT INTO lifecycle_entries (transaction_id, state, at)
SELECT tx_id, state::"TransactionState", at FROM (
  SELECT tx_id, 1 AS step, 'REGISTRADO' AS state, created_at AS at FROM seed_rows
  UNION ALL SELECT tx_id, 2, 'PENDIENTE', created_at + interval '5 milliseconds' FROM seed_rows
  UNION ALL SELECT tx_id, 3, CASE WHEN state IN ('LIQUIDADO', 'EXTORNADO') THEN 'AUTORIZADO' ELSE state END, decided_at
    FROM seed_rows WHERE state <> 'PENDIENTE'
  UNION ALL SELECT tx_id, 4, state, CASE WHEN state = 'LIQUIDADO' THEN settled_at ELSE decided_at + interval '10 minutes' END
    FROM seed_rows WHERE state IN ('LIQUIDADO', 'EXTORNADO')
) AS steps ORDER BY tx_id, step`;

// The refunds with their lifecycles (the refunds.lifecycle column, as refund-moves.ts writes it:
// instants to the millisecond in toISOString's form) and what they show of their payment, read
// from the rows just written.
const ISO = (at: string) => `to_char((${at}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const REFUNDS = `
WITH inserted AS (
  INSERT INTO refunds (id, merchant_id, operation_id, transaction_id, merchant_operation_number, method, card_brand,
    masked_pan, type, refund_amount, transaction_amount, currency, state, reason, additional_fields, lifecycle,
    created_at, updated_at)
  SELECT gen_random_uuid(), chosen.merchant_id, op_id, tx_id, o.merchant_operation_number, t.method, t.card_brand,
    t.masked_pan, 'TOTAL',
    chosen.amount, chosen.amount, '604', refund_state::"RefundState",
    CASE refund_state WHEN 'REGISTERED' THEN $1 WHEN 'IN_PROCESS' THEN $2 WHEN 'RESOLVED' THEN $3 ELSE $4 END,
    jsonb_build_object('canal', 'web', 'reason', 'Devolución del pedido', 'description', 'Seeded refund'),
    jsonb_build_array(jsonb_build_object('state', 'REGISTERED', 'at', ${ISO('refund_at')}))
      || CASE WHEN refund_state = 'REGISTERED' THEN '[]'::jsonb
              ELSE jsonb_build_array(jsonb_build_object('state', 'IN_PROCESS', 'at', ${ISO("refund_at + interval '1 minute'")})) END
      || CASE WHEN refund_state IN ('RESOLVED', 'REJECTED')
              THEN jsonb_build_array(jsonb_build_object('state', refund_state, 'at', ${ISO("refund_at + interval '2 minutes'")}))
              ELSE '[]'::jsonb END,
    refund_at, refund_at + interval '2 minutes'
  FROM (
    SELECT *, CASE WHEN r < 0.055 THEN 'RESOLVED' WHEN r < 0.065 THEN 'IN_PROCESS' WHEN r < 0.072 THEN 'REGISTERED' ELSE 'REJECTED' END AS refund_state,
           date_trunc('milliseconds', LEAST(settled_at + interval '1 hour' * (1 + floor(r * 1000)), now())) AS refund_at
    FROM seed_rows WHERE refunded
  ) AS chosen
  JOIN transactions t ON t.id = chosen.tx_id JOIN operations o ON o.id = chosen.op_id
  RETURNING id
)
SELECT count(*)::int AS refunds FROM inserted`;

/** The tables seeded, whose secondary indexes a large seed drops and makes again. */
const SEEDED_TABLES = ['operations', 'transactions', 'lifecycle_entries', 'refunds'];

/** From this many operations on, the secondary indexes are made once after the load instead of row by row. */
const REBUILD_FROM = 100_000;

/** Seeds `count` operations over the merchants; returns how many operations and refunds it wrote. */
export async function seedOperations(prisma: Db, options: SeedOptions): Promise<{ operations: number; refunds: number }> {
  if (options.merchantIds.length === 0) throw new Error('seedOperations needs at least one merchant');
  const batchSize = options.batchSize ?? 50_000;
  // A large load writes rows without maintaining the secondary (non-unique) indexes and makes
  // them again at the end, sorted in one pass: row-by-row inserts into a dozen indexes of random
  // keys were most of a 10 M seed's hour. The unique indexes stay, and keep a batch whose numbers
  // exist from writing anything.
  const secondary = options.count >= REBUILD_FROM ? await dropSecondaryIndexes(prisma) : [];
  try {
    return await seedAll(prisma, options, batchSize);
  } finally {
    if (secondary.length > 0) await makeIndexes(prisma, secondary);
    await recountRefunds(prisma);
    // Statistics for the planner, and the visibility map for index-only counts, as autovacuum
    // would leave them some minutes after a load this size.
    await prisma.$executeRawUnsafe('VACUUM ANALYZE operations, transactions, lifecycle_entries, refunds');
  }
}

async function seedAll(prisma: Db, options: SeedOptions, batchSize: number): Promise<{ operations: number; refunds: number }> {
  let refunds = 0;
  let done = 0;
  let next = 1;
  // Each worker takes the next batch: one transaction per batch, so a failed batch leaves nothing.
  const worker = async () => {
    while (next <= options.count) {
      const start = next;
      const end = Math.min(start + batchSize - 1, options.count);
      next = end + 1;
      const written = await seedBatch(prisma, options, start, end);
      refunds += written;
      done += end - start + 1;
      options.onBatch?.(done);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 1) }, worker));
  return { operations: options.count, refunds };
}

/** Drops the non-unique indexes of the seeded tables; answers their definitions, to make them again. */
async function dropSecondaryIndexes(prisma: Db): Promise<{ name: string; definition: string }[]> {
  const indexes = await prisma.$queryRawUnsafe<{ name: string; definition: string }[]>(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition
     FROM pg_index i WHERE i.indrelid = ANY($1::regclass[]) AND NOT i.indisunique AND NOT i.indisprimary`,
    SEEDED_TABLES,
  );
  for (const index of indexes) await prisma.$executeRawUnsafe(`DROP INDEX ${index.name}`);
  return indexes;
}

async function makeIndexes(prisma: Db, indexes: { name: string; definition: string }[]): Promise<void> {
  await prisma.$transaction(
    async (tx) => {
      await tx.$executeRawUnsafe(`SET LOCAL maintenance_work_mem = '1GB'`);
      for (const index of indexes) await tx.$executeRawUnsafe(index.definition);
    },
    { timeout: 3_600_000, maxWait: 60_000 },
  );
}

/**
 * refund_day_counts made again from the refunds: the batches write with triggers off (below), so
 * the seeded refunds are counted here, in one statement over all of them, while no refund moves.
 */
async function recountRefunds(prisma: Db): Promise<void> {
  await prisma.$transaction(
    async (tx) => {
      await tx.$executeRawUnsafe('LOCK TABLE refunds IN SHARE MODE');
      await tx.$executeRawUnsafe('DELETE FROM refund_day_counts');
      await tx.$executeRawUnsafe(`
        INSERT INTO refund_day_counts (merchant_id, state, day, count)
        SELECT merchant_id, state, (created_at AT TIME ZONE 'UTC')::date, count(*) FROM refunds GROUP BY 1, 2, 3`);
    },
    { timeout: 600_000, maxWait: 60_000 },
  );
}

function seedBatch(prisma: Db, options: SeedOptions, start: number, end: number): Promise<number> {
  return prisma.$transaction(
    async (tx) => {
      // The lifecycle rows are sorted before they are numbered: sort in memory, not on disk.
      await tx.$executeRawUnsafe(`SET LOCAL work_mem = '256MB'`);
      // Triggers off (foreign-key checks and refund_day_counts' upkeep): every reference is to a
      // row of the same batch, made just before, and the counts are made once at the end.
      await tx.$executeRawUnsafe(`SET LOCAL session_replication_role = replica`);
      // A lost batch on a crash is written again by the next run: no wait for the WAL flush.
      await tx.$executeRawUnsafe(`SET LOCAL synchronous_commit = off`);
      await tx.$executeRawUnsafe(SEED_ROWS, start, end, options.days ?? 90, options.merchantIds);
      await tx.$executeRawUnsafe(OPERATIONS, options.prefix);
      await tx.$executeRawUnsafe(TRANSACTIONS, STATE_REASONS.approved);
      await tx.$executeRawUnsafe(LIFECYCLE);
      const [written] = await tx.$queryRawUnsafe<{ refunds: number }[]>(
        REFUNDS,
        REFUND_REASONS.REGISTERED,
        REFUND_REASONS.IN_PROCESS,
        REFUND_REASONS.RESOLVED,
        REFUND_REASONS.REJECTED,
      );
      return written?.refunds ?? 0;
    },
    { timeout: 600_000, maxWait: 60_000 },
  );
}
