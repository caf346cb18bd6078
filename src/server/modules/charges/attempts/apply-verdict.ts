import type { Db, Tx } from '@/server/platform/db/client';
import { chargeMoves } from '@/server/modules/charges/moves/charge-moves';
import type { TransactionRow } from '@/server/modules/charges/transaction-view';
import { verdictRow, type Verdict } from '@/server/modules/charges/verdict';
import { recordAttempt } from './record-attempt';
import { NOTHING_OF_THE_CARD, recordSavingCard } from './save-on-approval';

// Where a processor's word about a payment already asked (a status inquiry of the worker's status
// sync, a notification, a late answer after ambiguity) becomes rows: the verdict (verdict.ts)
// gives the payment as it leaves it, its moves are checked against the table of docs/DESIGN.md 6
// (charge-moves.ts) with one event each, and record-attempt.ts writes them in one statement, from
// the claim of an attempt in flight or from the written row in the state it was read in.

/** A payment a processor's answer is about, as stored now. */
export type Answered = {
  row: TransactionRow;
  audience: { merchantId: string; merchantCode: string; merchantOperationNumber: string };
  /** Its claim (an attempt in flight, REGISTRADO) or its written transaction. */
  written: 'claim' | 'row';
};

/**
 * Writes the verdict's moves of the payment; false when it had moved on since it was read (or a
 * cancellation holds it): nothing written. Throws, writing nothing, for a move the table forbids.
 * `statusChecks`: the status sync's count of inquiries.
 */
export async function applyVerdict(
  db: Db | Tx,
  answered: Answered,
  verdict: Verdict,
  at: Date,
  { statusChecks, inTransaction = false }: { statusChecks?: number; inTransaction?: boolean } = {},
): Promise<boolean> {
  const { row } = answered;
  const settled = verdictRow(row, verdict, at);
  const merchant = { id: answered.audience.merchantId, code: answered.audience.merchantCode };
  // The status sync and a notification know no network transaction id nor token: a card saved here keeps none.
  return recordSavingCard(
    db,
    settled,
    merchant,
    NOTHING_OF_THE_CARD,
    (writer, written, card) => {
      const moves = chargeMoves(written, answered.audience, row.lifecycle.length);
      return recordAttempt(
        writer,
        {
          transactionId: row.id,
          from: answered.written === 'claim' ? 'claim' : row.state,
          columns: {
            state: written.state,
            state_reason: written.stateReason,
            expires_at: written.expiresAt,
            processor_response: written.processorResponse,
            processor_reference: written.processorReference,
            additional_fields: written.additionalFields,
            ...(verdict.declineClass !== undefined ? { decline_class: verdict.declineClass } : {}),
            status_check_at: null,
            ...(statusChecks !== undefined ? { status_checks: statusChecks } : {}),
            updated_at: at,
          },
          // A claim's transaction is written whole, REGISTRADO first; a written row gets its new entries.
          lifecycle: answered.written === 'claim' ? written.lifecycle.map(({ state, at }) => ({ state, at })) : moves.lifecycle,
          events: moves.events,
          next: null,
          card,
        },
        { inTransaction: inTransaction || writer !== db },
      );
    },
    inTransaction,
  );
}
