import type { PaymentMethod } from '@/server/domain/states';
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
