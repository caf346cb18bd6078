import type { Prisma } from '@/generated/prisma/client';
import type { Db, Tx } from '@/server/platform/db/client';
import type { TransactionState } from '@/server/core/domain/states';
import { STATE_REASONS } from '@/server/core/domain/state-reasons';
import { PROCESSORS } from '@/server/payments';
import { moveTransaction } from '@/server/modules/charges/moves/move-transaction';

// What a hosted payer page (/pay/<token>) shows: never card data, only the payment to make.
export type PayerTransaction = {
  token: string;
  transactionId: string;
  merchantName: string;
  /** The merchant's support email, when it set one. */
  merchantSupportEmail: string | null;
  merchantOperationNumber: string;
  method: 'BANK_TRANSFER' | 'CUOTEALO' | 'PAGOEFECTIVO' | 'QR';
  amount: bigint;
  currency: string;
  state: TransactionState;
  stateReason: string;
  expiresAt: Date | null;
  cip: string | null;
  qrImage: string | null;
  redirectUrl: string | null;
  installments: number | null;
  /**
   * Carried by a merchant's processor account: the payer pays at the processor (the CIP at a bank
   * or agent), which tells the service; this page only shows the payment.
   */
  atProcessor: boolean;
};

/** Whether a connector is a merchant's processor account rather than a sandbox processor. */
export function isAccountConnector(connectorId: string | null): boolean {
  return connectorId !== null && PROCESSORS.some((processor) => connectorId.startsWith(`${processor}-`));
}

/** Whether `token` has the shape of a payer token (others name no payment, and may hold what a query cannot carry, as NUL). */
export function isPayerToken(token: string): boolean {
  return /^[A-Za-z0-9_-]{16,64}$/.test(token);
}

/** What every payer page shows of its payment (the challenge page and the others). */
export const PAYER_PAGE_COLUMNS = {
  id: true,
  method: true,
  amount: true,
  currency: true,
  state: true,
  expiresAt: true,
  redirectUrl: true,
  operation: { select: { merchantOperationNumber: true, merchant: { select: { name: true, supportEmail: true } } } },
} satisfies Prisma.TransactionSelect;

type PayerPageRow = Prisma.TransactionGetPayload<{ select: typeof PAYER_PAGE_COLUMNS }>;

/** What every payer page shows first: whose payment it is and which. */
export function payerPageHeader(token: string, row: PayerPageRow) {
  return {
    token,
    transactionId: row.id,
    merchantName: row.operation.merchant.name,
    merchantSupportEmail: row.operation.merchant.supportEmail,
    merchantOperationNumber: row.operation.merchantOperationNumber,
  };
}

/** The payment a payer token names, with the columns `select` names; null for none (or a token of another shape). */
export async function paymentOfToken<Select extends Prisma.TransactionSelect>(
  db: Db,
  token: string,
  select: Select,
): Promise<Prisma.TransactionGetPayload<{ select: Select }> | null> {
  if (!isPayerToken(token)) return null;
  return db.transaction.findUnique({ where: { payerToken: token }, select });
}

/** The payer gives up on a payment: CANCELADO, nothing was charged (null when it had moved on). */
export function abandonMove(tx: Tx, transactionId: string, now: Date) {
  return moveTransaction(
    tx,
    transactionId,
    'PENDIENTE',
    'CANCELADO',
    { stateReason: STATE_REASONS.abandoned, expiresAt: null },
    now,
  );
}

export async function findPayerTransaction(prisma: Db, token: string): Promise<PayerTransaction | null> {
  const row = await paymentOfToken(prisma, token, {
    ...PAYER_PAGE_COLUMNS,
    stateReason: true,
    processorResponse: true,
    additionalFields: true,
    connectorId: true,
  });
  if (!row) return null;
  const processor = (row.processorResponse ?? {}) as { cip?: string; qr_image?: string };
  const additional = (row.additionalFields ?? {}) as { installments?: string };
  return {
    ...payerPageHeader(token, row),
    method: row.method as PayerTransaction['method'],
    amount: row.amount,
    currency: row.currency,
    state: row.state,
    stateReason: row.stateReason,
    expiresAt: row.expiresAt,
    cip: processor.cip ?? null,
    qrImage: processor.qr_image ?? null,
    redirectUrl: row.redirectUrl,
    installments: additional.installments ? Number(additional.installments) : null,
    atProcessor: isAccountConnector(row.connectorId),
  };
}

/** The merchant's redirect_url with the operation, transaction and state (docs/DESIGN.md 8). */
export function merchantReturnUrl(
  payment: { redirectUrl: string | null; merchantOperationNumber: string; transactionId: string },
  state: string,
): string | null {
  if (!payment.redirectUrl) return null;
  const url = new URL(payment.redirectUrl);
  url.searchParams.set('merchant_operation_number', payment.merchantOperationNumber);
  url.searchParams.set('transaction_id', payment.transactionId);
  url.searchParams.set('state', state);
  return url.toString();
}
