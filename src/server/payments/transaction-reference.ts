import type { PaymentMethod } from '@/server/core/domain/states';
import type { TransactionReference } from './connector';

/** The columns of a stored transaction that a connector may see (never the PAN: it is not stored). */
export type StoredTransaction = {
  id: string;
  method: string;
  amount: bigint;
  currency: string;
  cardBin: string | null;
  cardLast4: string | null;
  processorReference?: string | null;
  createdAt?: Date | null;
};

/** A payment known only by the processor's id of it (what a notification names). */
export function processorRecord(processorReference: string): TransactionReference {
  return { transactionId: '', method: 'CARD', amount: 0n, currency: '604', card: null, processorReference, createdAt: null };
}

/**
 * What a processor's lookup that found nothing means. A processor may still be making a payment
 * whose answer was lost (our request aborted, not its work; a search index that lags), so only
 * after ABSENCE_GRACE_MS from the attempt is "not found" believed: before, it is unknown, and
 * the status sync asks again later (docs/processors/README.md, "Lost answers").
 */
export function absence(reference: TransactionReference, now = new Date()): { outcome: 'not_found' } | { outcome: 'unknown' } {
  const made = reference.createdAt?.getTime();
  return made !== undefined && now.getTime() - made >= ABSENCE_GRACE_MS ? { outcome: 'not_found' } : { outcome: 'unknown' };
}

export const ABSENCE_GRACE_MS = 5 * 60_000;

export function transactionReference(row: StoredTransaction): TransactionReference {
  return {
    transactionId: row.id,
    method: row.method as PaymentMethod,
    amount: row.amount,
    currency: row.currency,
    card: row.cardBin !== null && row.cardLast4 !== null ? { bin: row.cardBin, last4: row.cardLast4 } : null,
    processorReference: row.processorReference ?? null,
    createdAt: row.createdAt ?? null,
  };
}
