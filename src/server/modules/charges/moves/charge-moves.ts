import { canTransition, type TransactionState } from '@/server/core/domain/states';
import { toTransactionObject, type TransactionRow } from '@/server/modules/charges/transaction-view';
import { eventOf, type OutboxEventRow } from '@/server/modules/events/event-of';

/**
 * The moves of a charge's attempt (REGISTRADO when it is claimed; PENDIENTE and, for a
 * synchronous decision, AUTORIZADO or DENEGADO when the processor answers), checked against
 * docs/DESIGN.md 6, with one event per move: what the charge statements (services/charges/)
 * store. `row.lifecycle` lists every move in order; those before `stored` are already written,
 * so only the later ones are returned, while each event's transaction shows the whole lifecycle.
 */
export function chargeMoves(
  row: TransactionRow,
  audience: { merchantId: string; merchantCode: string; merchantOperationNumber: string },
  stored = 0,
): { lifecycle: { state: TransactionState; at: Date }[]; events: OutboxEventRow[] } {
  const lifecycle = row.lifecycle.map((entry) => ({ state: entry.state, at: entry.at }));
  lifecycle.forEach((entry, index) => {
    const from = index === 0 ? null : lifecycle[index - 1]!.state;
    if (!canTransition(from, entry.state)) throw new Error(`transaction move ${from ?? 'NONE'} -> ${entry.state} is not allowed`);
  });
  const events = lifecycle.slice(stored).map((entry, offset) => {
    const index = stored + offset;
    return eventOf({
      ...audience,
      to: entry.state,
      callbackUrl: row.callbackUrl,
      transaction: toTransactionObject({ ...row, state: entry.state, lifecycle: lifecycle.slice(0, index + 1) }, 'millis', {
        queryDetails: true,
      }),
    });
  });
  return { lifecycle: lifecycle.slice(stored), events };
}
