import type { Db, Tx } from '@/server/platform/db/client';
import type { ProcessorCardToken } from '@/server/payments';
import { connectorById } from '@/server/modules/processors/connectors';
import { logError } from '@/server/platform/log';

// The processors' own tokens for saved cards (../shared CARD-ON-FILE.md 5 and 6): kept beside the
// vault's PAN, one per card and connector, provisioned by an approval that made one; deleted at
// the processor, where its API allows it, once no card uses it: the card removed, or a newer token
// of the card in its place (the database's trigger retires either, migration retired_card_tokens).

/** A processor's token for a card, as a charge of the card uses it. */
export type HeldCardToken = ProcessorCardToken & { connectorId: string };

/**
 * What a charge needs of the processors' tokens: the card's own, and the customer's id at each
 * processor that keeps customers (from a token of any of the customer's cards), so that a token a
 * charge provisions joins that customer rather than making another.
 */
export type CustomerTokens = {
  card: readonly HeldCardToken[];
  processorCustomers: ReadonlyMap<string, string>;
};

export const NO_TOKENS: CustomerTokens = { card: [], processorCustomers: new Map() };

/** The columns `tokensOf` reads, for a query that fetches the customer's tokens with something else. */
export const tokenSelect = { cardId: true, connectorId: true, token: true, processorCustomerId: true, createdAt: true } as const;

type TokenRow = { cardId: string; connectorId: string; token: string; processorCustomerId: string | null; createdAt: Date };

export async function customerTokens(db: Db | Tx, customerId: string, cardId: string | null): Promise<CustomerTokens> {
  const rows = await db.processorCardToken.findMany({ where: { card: { customerId } }, select: tokenSelect });
  return tokensOf(rows, cardId);
}

/** The customer's tokens (of all its cards) as a charge of `cardId` uses them; the oldest customer id at each processor. */
export function tokensOf(unordered: readonly TokenRow[], cardId: string | null): CustomerTokens {
  const rows = [...unordered].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  const processorCustomers = new Map<string, string>();
  for (const row of rows) {
    if (row.processorCustomerId && !processorCustomers.has(row.connectorId)) {
      processorCustomers.set(row.connectorId, row.processorCustomerId);
    }
  }
  const card = rows
    .filter((row) => row.cardId === cardId)
    .map(({ connectorId, token, processorCustomerId }) => ({ connectorId, token, processorCustomerId }));
  return { card, processorCustomers };
}

/**
 * Keeps the token an approval or a verification provisioned at `connectorId`, in its
 * transaction: a later one replaces it (the processor made it for this same card), and the one it
 * replaces is retired for deletion.
 */
export async function keepCardToken(tx: Db | Tx, cardId: string, { connectorId, ...token }: HeldCardToken): Promise<void> {
  await tx.processorCardToken.upsert({
    where: { cardId_connectorId: { cardId, connectorId } },
    create: { cardId, connectorId, token: token.token, processorCustomerId: token.processorCustomerId },
    update: { token: token.token, processorCustomerId: token.processorCustomerId },
  });
}

/** Whether the card holds a token of this connector's. */
export async function holdsCardToken(db: Db | Tx, cardId: string, connectorId: string): Promise<boolean> {
  return (await db.processorCardToken.count({ where: { cardId, connectorId } })) > 0;
}

/** How long a token the processor could not delete waits before it is asked again: doubling from a minute, at most six hours. */
export function deletionBackoffMs(attempts: number): number {
  return Math.min(60_000 * 2 ** Math.max(attempts - 1, 0), 6 * 3_600_000);
}

/** How long a token taken for deletion is one worker's: longer than its processor may take to answer. */
const LEASE_MS = 2 * 60_000;

type RetiredToken = {
  id: string;
  connectorId: string;
  token: string;
  processorCustomerId: string | null;
  deleteAttempts: number;
};

/**
 * The worker's deletion of the tokens no card uses (retired_card_tokens: a removed card's, or one
 * a newer token of its card replaced): each asked of its processor where its connector deletes
 * tokens, and forgotten once deleted there (or where the processor offers no deletion, or the
 * account is gone). A processor that cannot answer keeps the token, asked again after a backoff;
 * those never asked come first, then those due longest, so a processor that stays down never
 * starves the others. Each token is leased before its processor is asked, as the worker's other
 * jobs lease their rows, so that two workers never ask for one deletion twice; a worker that dies
 * meanwhile leaves it to another once the lease ends. Returns how many were forgotten.
 */
export async function deleteRetiredCardTokens(db: Db, { limit = 50, now = new Date() } = {}): Promise<number> {
  let forgotten = 0;
  for (let taken = 0; taken < limit; taken += 1) {
    const retired = await leaseRetiredToken(db, now);
    if (!retired) break;
    try {
      if (await deleteAtProcessor(db, retired, now)) forgotten += 1;
    } catch (error) {
      // A connector that cannot be built (its account's secret unopenable) backs off as an
      // unavailable processor does, and does not stop the others.
      logError('card token deletion failed', error, { connector_id: retired.connectorId });
      await backOff(db, retired, now);
    }
  }
  return forgotten;
}

async function leaseRetiredToken(db: Db, now: Date): Promise<RetiredToken | null> {
  const [leased] = await db.$queryRaw<RetiredToken[]>`
    UPDATE retired_card_tokens SET delete_after = ${new Date(now.getTime() + LEASE_MS)}
    WHERE id = (
      SELECT id FROM retired_card_tokens WHERE delete_after IS NULL OR delete_after <= ${now}
      ORDER BY delete_after NULLS FIRST, retired_at LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING id, connector_id AS "connectorId", token, processor_customer_id AS "processorCustomerId",
              delete_attempts AS "deleteAttempts"`;
  return leased ?? null;
}

/** Asks the token's processor to delete it: forgotten (true) unless the processor could not answer. */
async function deleteAtProcessor(db: Db, retired: RetiredToken, now: Date): Promise<boolean> {
  const connector = await connectorById(db, retired.connectorId);
  const answer = connector
    ? await connector.deleteCardToken({ token: retired.token, processorCustomerId: retired.processorCustomerId })
    : null;
  if (answer?.outcome === 'unavailable') {
    await backOff(db, retired, now);
    return false;
  }
  await db.retiredCardToken.deleteMany({ where: { id: retired.id } });
  return true;
}

/** A token whose deletion failed: one attempt more, asked again after its backoff. */
async function backOff(db: Db, retired: RetiredToken, now: Date): Promise<void> {
  const attempts = retired.deleteAttempts + 1;
  await db.retiredCardToken.updateMany({
    where: { id: retired.id },
    data: { deleteAttempts: attempts, deleteAfter: new Date(now.getTime() + deletionBackoffMs(attempts)) },
  });
}
