import type { TransactionRow } from '@/server/modules/charges/transaction-view';

/** A S/ 150.00 CARD transaction as the views read it, through `states` (each entry at `at`), with `overrides` over it. */
export function transactionRow(
  states: TransactionRow['state'][],
  at: Date,
  overrides: Partial<TransactionRow> = {},
): TransactionRow {
  return {
    id: 't-1',
    method: 'CARD',
    amount: 15000n,
    currency: '604',
    state: states.at(-1)!,
    stateReason: '',
    expiresAt: null,
    continueUrl: null,
    callbackUrl: null,
    redirectUrl: null,
    methodDetails: {},
    processorResponse: null,
    additionalFields: null,
    processorReference: null,
    cardSaveId: null,
    savedCardId: null,
    captureStatus: null,
    capturedAmount: null,
    captureBefore: null,
    createdAt: at,
    lifecycle: states.map((state) => ({ state, at })),
    ...overrides,
  };
}
