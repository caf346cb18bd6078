import type { Prisma } from '@/generated/prisma/client';
import type { Db, Tx } from '@/server/platform/db/client';
import { completeCardSave } from '@/server/modules/customers/card-saves';
import { keepCardToken, type HeldCardToken } from '@/server/modules/customers/card-tokens';
import { savedCardSummary, type SavedCardRow } from '@/server/modules/customers/card-view';
import type { TransactionRow } from '@/server/modules/charges/transaction-view';
import type { CardCharged } from './record-attempt';

// The approval of a charge that saves its card, or of a saved card's charge (docs/DECISIONS.md
// "Card on file"): what it does to the card is written with the approval, whichever path records
// it. A saved card's charge leaves its mark on the card in the approval's own statement
// (record-attempt.ts, one round trip: no transaction held open); the charge that saves a card
// makes the card in a transaction with the approval, and the row it writes (and the answer made
// from it) names the card. If the approval is not written (another process recorded the attempt
// first), the card's change is not written either.

const APPROVED: ReadonlySet<string> = new Set(['AUTORIZADO', 'LIQUIDADO']);

/**
 * What the processor's approval said of the card: the network transaction id and a token it
 * made (`cardToken`, at the attempt's connector), both null where it said nothing (the status
 * sync, a notification).
 */
export type CardApproval = { nti: string | null; cardToken: HeldCardToken | null };

export const NOTHING_OF_THE_CARD: CardApproval = { nti: null, cardToken: null };

/** Thrown inside the transaction to undo the save of an approval that was not written. */
class NotMoved extends Error {}

/**
 * Runs `record` with the row as it will be written. The approval of a charge that saves its card
 * saves the card and names it in `additional_fields` (`saved_card`, `stored_credential`), in one
 * database transaction with `record`; that of a saved card's charge hands `record` what its
 * statement writes on the card (an MIT counted against the consent, the approval's network
 * transaction id as the latest). A token the processor made for the card is kept beside its
 * others (provision on use). Any other outcome is `record` as it is. `record` answers whether it wrote.
 */
export async function recordSavingCard(
  db: Db | Tx,
  settled: TransactionRow,
  merchant: { id: string; code: string },
  { nti, cardToken }: CardApproval,
  record: (db: Db | Tx, row: TransactionRow, card: CardCharged | null) => Promise<boolean>,
  /** `db` is a caller's transaction (a notification's): a savepoint in it, not a transaction of its own. */
  inTransaction = false,
): Promise<boolean> {
  if (!APPROVED.has(settled.state)) return record(db, settled, null);
  // A saved card's charge: what it leaves on the card is written by the approval's own statement.
  const charged = savedCardCharged(settled.additionalFields);
  if (charged) {
    return record(db, settled, { id: charged.card_id, mit: charged.initiator === 'MERCHANT', nti, token: cardToken });
  }
  const saveId = settled.cardSaveId;
  if (!saveId) return record(db, settled, null);
  const run = async (tx: Tx) => {
    let row = settled;
    const card = await completeCardSave(tx, merchant, saveId, { transactionId: settled.id, nti });
    if (card) row = { ...settled, savedCardId: card.id, additionalFields: withSavedCard(settled.additionalFields, card) };
    if (card && cardToken) await keepCardToken(tx, card.id, cardToken);
    if (!(await record(tx, row, null))) throw new NotMoved();
    return true;
  };
  // A transaction's client also has $transaction (nested transactions, which the embedded
  // database's adapter does not make): the caller says which it is.
  if (inTransaction) return inSavepoint(db, run);
  try {
    return await (db as Db).$transaction(run);
  } catch (error) {
    if (error instanceof NotMoved) return false;
    throw error;
  }
}

/** The saved card a charge used, as its additional_fields name it (stored-credential.ts). */
function savedCardCharged(fields: Prisma.JsonValue | null): { card_id: string; initiator: string } | null {
  const stored = (fields as { stored_credential?: { card_id?: unknown; initiator?: unknown; usage?: unknown } } | null)
    ?.stored_credential;
  if (stored?.usage !== 'SUBSEQUENT' || typeof stored.card_id !== 'string' || typeof stored.initiator !== 'string') return null;
  return { card_id: stored.card_id, initiator: stored.initiator };
}

/** The caller's transaction (a notification's): a savepoint undoes the save alone. */
async function inSavepoint(tx: Tx, run: (tx: Tx) => Promise<boolean>): Promise<boolean> {
  await tx.$executeRawUnsafe('SAVEPOINT card_save');
  try {
    const moved = await run(tx);
    await tx.$executeRawUnsafe('RELEASE SAVEPOINT card_save');
    return moved;
  } catch (error) {
    await tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT card_save');
    if (error instanceof NotMoved) return false;
    throw error;
  }
}

function withSavedCard(fields: Prisma.JsonValue | null, card: SavedCardRow): Prisma.JsonObject {
  return {
    ...(fields as Prisma.JsonObject | null),
    saved_card: savedCardSummary(card),
    // The charge that saved the card is its first use; the customer was present.
    stored_credential: { card_id: card.id, initiator: 'CUSTOMER', usage: 'FIRST', reason: card.reason, nti_sent: false },
  };
}
