import type { Prisma } from '@/generated/prisma/client';
import { toTimeObject } from '@/server/core/domain/time';
import type { TransactionObject } from '@/server/core/interface/transaction';

// One mapper from a stored transaction to the interface's transaction object (2.6).
export const transactionSelect = {
  id: true,
  method: true,
  amount: true,
  currency: true,
  state: true,
  stateReason: true,
  expiresAt: true,
  continueUrl: true,
  callbackUrl: true,
  redirectUrl: true,
  methodDetails: true,
  processorResponse: true,
  additionalFields: true,
  processorReference: true,
  cardSaveId: true,
  savedCardId: true,
  captureStatus: true,
  capturedAmount: true,
  captureBefore: true,
  createdAt: true,
  lifecycle: { select: { state: true, at: true }, orderBy: { id: 'asc' } },
} satisfies Prisma.TransactionSelect;

export type TransactionRow = Prisma.TransactionGetPayload<{ select: typeof transactionSelect }>;

/** What a processor is asked about a stored payment by (payments' transactionReference), and whose connector asks. */
export const askedSelect = {
  id: true,
  method: true,
  amount: true,
  currency: true,
  cardBin: true,
  cardLast4: true,
  processorReference: true,
  createdAt: true,
  connectorId: true,
} satisfies Prisma.TransactionSelect;

export type TimeStyle = 'millis' | 'seconds';

// Where the payer continues: the redirect methods' page, and a CARD payment's 3-D Secure challenge.
const REDIRECT_METHODS = new Set(['BANK_TRANSFER', 'CUOTEALO', 'CARD']);

/** `queryDetails`: the shape of transaction queries and callbacks (CARD adds its URLs, docs/interface.md 2.7). */
export function toTransactionObject(
  row: TransactionRow,
  style: TimeStyle,
  options: { queryDetails?: boolean } = {},
): TransactionObject {
  const details = { ...(row.methodDetails as Record<string, unknown>) };
  if (options.queryDetails && row.method === 'CARD') {
    if (row.redirectUrl) details.redirect_url = row.redirectUrl;
    if (row.callbackUrl) details.callback_url = row.callbackUrl;
  }
  return {
    transaction_id: row.id,
    channel: 'ecommerce',
    state: row.state,
    ...(row.stateReason ? { state_reason: row.stateReason } : {}),
    ...(row.continueUrl && REDIRECT_METHODS.has(row.method) && row.state === 'PENDIENTE'
      ? { continue_url: row.continueUrl }
      : {}),
    amount: row.amount.toString(),
    currency: row.currency,
    payment_method: {
      method_name: row.method,
      method_details: details,
    },
    expiration_date: row.expiresAt ? toTimeObject(row.expiresAt, style) : null,
    processor_response: (row.processorResponse ?? null) as TransactionObject['processor_response'],
    additional_fields: additionalFieldsOf(row, style),
    lifecycle: row.lifecycle.map((entry) => ({ state: entry.state, date: toTimeObject(entry.at, style) })),
  };
}

/** States in which a payment to capture later shows its capture: authorized, and what came of it. */
const SHOWS_CAPTURE: ReadonlySet<string> = new Set(['AUTORIZADO', 'LIQUIDADO', 'EXTORNADO']);

/**
 * The stored additional fields, the processor's reference (its own column) and a manual capture's
 * state (docs/DECISIONS.md "Capture later").
 */
function additionalFieldsOf(row: TransactionRow, style: TimeStyle): TransactionObject['additional_fields'] {
  const fields = (row.additionalFields ?? null) as TransactionObject['additional_fields'];
  const stored = row.processorReference ? { ...fields, processor_reference: row.processorReference } : fields;
  if (!row.captureStatus || !row.captureBefore || !SHOWS_CAPTURE.has(row.state)) return stored;
  const capturable = row.state === 'AUTORIZADO' && row.captureStatus !== 'CAPTURED' ? row.amount : 0n;
  return {
    ...stored,
    capture: {
      mode: 'MANUAL',
      status: row.captureStatus,
      capturable_amount: capturable.toString(),
      captured_amount: row.capturedAmount?.toString() ?? null,
      capture_before: toTimeObject(row.captureBefore, style),
    },
  };
}

/** Operation fields of docs/interface.md 2.9: state, amount and currency are those of the latest transaction. */
export function toOperationObject(
  merchantOperationNumber: string,
  rows: TransactionRow[],
  style: TimeStyle,
  queryDetails = false,
) {
  const latest = rows.at(-1);
  if (!latest) throw new Error('an operation always has a transaction');
  return {
    merchant_operation_number: merchantOperationNumber,
    state: latest.state,
    amount: latest.amount.toString(),
    currency: latest.currency,
    transactions: rows.map((row) => toTransactionObject(row, style, { queryDetails })),
  };
}
