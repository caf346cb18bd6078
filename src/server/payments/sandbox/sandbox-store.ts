import type { ConnectorMode as StoredConnectorMode } from '@/generated/prisma/client';
import type { Tx } from '@/server/platform/db/client';

// What the sandbox processors keep outside the service's own tables (docs/ORCHESTRATION.md 1):
// each one's mode and whether routing may use it (`connector_settings`), and what each one
// decided for each payment (`sandbox_processor_records`), so that a status inquiry after an
// ambiguous answer finds it, as at a real processor. Both are shared by every instance. The
// connectors never import the database: the service hands a handle in (databaseSandboxStore),
// unit tests a memory store (tests/support/memory-sandbox-store.ts).

/** The modes a platform admin sets on a sandbox processor (docs/ORCHESTRATION.md 1). */
// The mode list lives in the domain so the console's browser code can offer it without this module.
import { CONNECTOR_MODES, type ConnectorMode } from '@/server/core/domain/connector-modes';

export { CONNECTOR_MODES, type ConnectorMode };

// The database's enum and this list are one set: a mode added to either alone fails to compile.
type SameSet<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _modesAreStored: SameSet<ConnectorMode, StoredConnectorMode> = true;

/** A processor's settings; a connector without a row is `normal` and enabled. */
export type ConnectorSettings = { mode: ConnectorMode; enabled: boolean };

export const DEFAULT_CONNECTOR_SETTINGS: ConnectorSettings = { mode: 'normal', enabled: true };

/** What a processor decided for one payment (technical failures decide nothing and are not kept). */
export type SandboxDecision =
  | {
      outcome: 'approved';
      authorizationCode: string;
      brandTransactionId: string;
      /** Authorized to be captured later: `capturedAmount` is null until it is. */
      uncaptured?: boolean;
      capturedAmount?: bigint | null;
      /** Reversed: the authorization released, or the captured money returned. */
      voided?: boolean;
    }
  | { outcome: 'declined'; code: string }
  | { outcome: 'pending' };

export type SandboxStore = {
  modeOf(connectorId: string): Promise<ConnectorSettings>;
  /** Keeps a processor's decision for `reference` (the transaction id); the first write wins. */
  record(connectorId: string, reference: string, decision: SandboxDecision): Promise<void>;
  find(connectorId: string, reference: string): Promise<SandboxDecision | null>;
  /**
   * Captures `amount` of an approval still uncaptured and not voided, in one step (so a capture
   * and a void racing at the processor never both take), and returns the record as it is after.
   */
  capture(connectorId: string, reference: string, amount: bigint): Promise<SandboxDecision | null>;
  /** Marks an approval reversed. */
  void(connectorId: string, reference: string): Promise<void>;
  setMode(connectorId: string, mode: ConnectorMode): Promise<void>;
  setEnabled(connectorId: string, enabled: boolean): Promise<void>;
};

/**
 * The tables a store reads and writes: the client (`Db`), or the caller's transaction when a connector
 * is asked from inside one (the embedded database runs a statement outside an open transaction
 * only after it ends, so a store on the client would wait on its own caller there).
 */
export type SandboxDb = Pick<Tx, 'connectorSetting' | 'sandboxProcessorRecord' | '$executeRawUnsafe'>;

/** How long an instance trusts the settings it read. */
export const SETTINGS_CACHE_MS = 1_000;

type RecordRow = {
  connector_id: string;
  reference: string;
  outcome: string;
  code: string;
  authorization_code: string | null;
  brand_transaction_id: string | null;
  uncaptured: boolean;
};

// One statement text for any number of records (a JSON array), so it is prepared once.
const INSERT_RECORDS = `
INSERT INTO sandbox_processor_records (connector_id, reference, outcome, code, authorization_code, brand_transaction_id, uncaptured)
SELECT connector_id, reference, outcome, code, authorization_code, brand_transaction_id, uncaptured
FROM jsonb_to_recordset($1::jsonb)
  AS r(connector_id text, reference text, outcome text, code text, authorization_code text, brand_transaction_id text,
       uncaptured boolean)
ON CONFLICT DO NOTHING`;

/** An empty batch of records: it writes nothing, and readies the statement on the connection (warm-up). */
export async function warmSandboxRecords(db: SandboxDb): Promise<void> {
  await db.$executeRawUnsafe(INSERT_RECORDS, '[]');
}

/**
 * Group commit of the processors' records: a record asked for while an insert runs waits for
 * the next one, which carries every record that came meanwhile. Each caller still learns its
 * record is stored before the processor answers (the promise), at one statement per batch
 * instead of one per payment.
 */
function recordBatcher(db: SandboxDb): (row: RecordRow) => Promise<void> {
  let waiting: { row: RecordRow; done: (error?: Error) => void }[] = [];
  let running = false;
  const flush = async () => {
    running = true;
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      const error = await db.$executeRawUnsafe(INSERT_RECORDS, JSON.stringify(batch.map((entry) => entry.row))).then(
        () => undefined,
        (failure: unknown) => (failure instanceof Error ? failure : new Error('sandbox record insert failed')),
      );
      for (const entry of batch) entry.done(error);
    }
    running = false;
  };
  return (row) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ row, done: (error) => (error === undefined ? resolve() : reject(error)) });
      if (!running) void flush();
    });
}

const RECORD_FIELDS = {
  outcome: true,
  code: true,
  authorizationCode: true,
  brandTransactionId: true,
  uncaptured: true,
  capturedAmount: true,
  voided: true,
} as const;

function decisionOf(row: {
  outcome: string;
  code: string;
  authorizationCode: string | null;
  brandTransactionId: string | null;
  uncaptured: boolean;
  capturedAmount: bigint | null;
  voided: boolean;
}): SandboxDecision {
  if (row.outcome === 'approved' && row.authorizationCode !== null) {
    return {
      outcome: 'approved',
      authorizationCode: row.authorizationCode,
      // Records from before the column have no id.
      brandTransactionId: row.brandTransactionId ?? '',
      ...(row.uncaptured ? { uncaptured: true, capturedAmount: row.capturedAmount } : {}),
      ...(row.voided ? { voided: true } : {}),
    };
  }
  if (row.outcome === 'declined') return { outcome: 'declined', code: row.code };
  if (row.outcome === 'pending') return { outcome: 'pending' };
  throw new Error(`Unreadable sandbox processor record: ${row.outcome}`);
}

/**
 * The store on the service's database. Settings are read whole (one small table) at most once a
 * second per store, so a charge costs no extra round trip each time: a change made through this
 * store applies at once here, and other instances (and other stores) see it within
 * SETTINGS_CACHE_MS, the price of not reading the table on every charge.
 */
export function databaseSandboxStore(db: SandboxDb, clock: () => number = () => performance.now()): SandboxStore {
  let cached: { readAt: number; settings: Promise<ReadonlyMap<string, ConnectorSettings>> } | null = null;
  const insertRecord = recordBatcher(db);

  function settings(): Promise<ReadonlyMap<string, ConnectorSettings>> {
    const now = clock();
    if (cached !== null && now - cached.readAt < SETTINGS_CACHE_MS) return cached.settings;
    const reading = db.connectorSetting
      .findMany({ select: { connectorId: true, mode: true, enabled: true } })
      .then((rows) => new Map(rows.map(({ connectorId, mode, enabled }) => [connectorId, { mode, enabled }])));
    const entry = { readAt: now, settings: reading };
    cached = entry;
    // A failed read is not kept: the next call asks again (this call's caller gets the error).
    void reading.catch(() => {
      if (cached === entry) cached = null;
    });
    return reading;
  }

  return {
    async modeOf(connectorId) {
      return (await settings()).get(connectorId) ?? DEFAULT_CONNECTOR_SETTINGS;
    },
    record(connectorId, reference, decision) {
      return insertRecord({
        connector_id: connectorId,
        reference,
        outcome: decision.outcome,
        code: decision.outcome === 'approved' ? '00' : decision.outcome === 'declined' ? decision.code : '',
        authorization_code: decision.outcome === 'approved' ? decision.authorizationCode : null,
        brand_transaction_id: decision.outcome === 'approved' ? decision.brandTransactionId : null,
        uncaptured: decision.outcome === 'approved' && decision.uncaptured === true,
      });
    },
    async find(connectorId, reference) {
      const row = await db.sandboxProcessorRecord.findUnique({
        where: { connectorId_reference: { connectorId, reference } },
        select: RECORD_FIELDS,
      });
      return row === null ? null : decisionOf(row);
    },
    async capture(connectorId, reference, amount) {
      await db.sandboxProcessorRecord.updateMany({
        where: { connectorId, reference, outcome: 'approved', uncaptured: true, capturedAmount: null, voided: false },
        data: { capturedAmount: amount },
      });
      return this.find(connectorId, reference);
    },
    async void(connectorId, reference) {
      await db.sandboxProcessorRecord.updateMany({
        where: { connectorId, reference, outcome: 'approved' },
        data: { voided: true },
      });
    },
    async setMode(connectorId, mode) {
      await db.connectorSetting.upsert({ where: { connectorId }, create: { connectorId, mode }, update: { mode } });
      cached = null;
    },
    async setEnabled(connectorId, enabled) {
      await db.connectorSetting.upsert({ where: { connectorId }, create: { connectorId, enabled }, update: { enabled } });
      cached = null;
    },
  };
}
