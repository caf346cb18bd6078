import { canTransition, type TransactionState } from '@/server/domain/states';
import { toTransactionObject, type TransactionRow } from '../transaction-view';
import { eventOf, type OutboxEventRow } from './event-of';

/**
 * The first moves of a new transaction (REGISTRADO, PENDIENTE and, for a synchronous decision,
 * AUTORIZADO or DENEGADO), checked against docs/DESIGN.md 6, with one event per move: what
 * record-charge.ts stores in its one statement. `row.lifecycle` lists the moves in order.
 */
export function chargeMoves(
  row: TransactionRow,
  audience: { merchantId: string; merchantCode: string; merchantOperationNumber: string },
): { lifecycle: { state: TransactionState; at: Date }[]; events: OutboxEventRow[] } {
  const lifecycle = row.lifecycle.map((entry) => ({ state: entry.state, at: entry.at }));
  lifecycle.forEach((entry, index) => {
    const from = index === 0 ? null : lifecycle[index - 1]!.state;
    if (!canTransition(from, entry.state)) throw new Error(`transaction move ${from ?? 'NONE'} -> ${entry.state} is not allowed`);
  });
  const events = lifecycle.map((entry, index) =>
    eventOf({
      ...audience,
      to: entry.state,
      callbackUrl: row.callbackUrl,
      transaction: toTransactionObject({ ...row, state: entry.state, lifecycle: lifecycle.slice(0, index + 1) }, 'millis', {
        queryDetails: true,
      }),
    }),
  );
  return { lifecycle, events };
}
