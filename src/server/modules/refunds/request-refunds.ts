import { randomUUID } from 'node:crypto';
import { Prisma } from '@/generated/prisma/client';
import type { Db, Tx } from '@/server/platform/db/client';
import type { ActingMerchant } from '@/server/modules/access/acting-merchant';
import { AppError, type ErrorKind, type FieldError } from '@/server/core/domain/errors';
import { successMeta } from '@/server/core/domain/envelope';
import { REFUNDABLE_METHODS, type PaymentMethod, type TransactionState } from '@/server/core/domain/states';
import { isUuid } from '@/server/core/domain/uuid';
import type { RefundRequest } from '@/server/core/interface/refund';
import { registerRefunds } from './refund-moves';

// POST /refund (docs/interface.md 4.5, docs/DESIGN.md 7): all-or-nothing; the answer carries the status of
// the first failing item and `errors` lists every failing item.

/**
 * One refund to file. The console names a transaction by its id alone: `merchant_operation_number`
 * null (the operation is the transaction's) and `refund_amount` null (TOTAL: the transaction's amount).
 */
export type RefundItem = Omit<RefundRequest['operations'][number], 'merchant_operation_number' | 'refund_amount'> & {
  merchant_operation_number: string | null;
  refund_amount: string | null;
};

/** Why an item cannot be refunded, for the console (the API says it with `errors`). */
export const REFUSAL_REASONS = [
  'not_found',
  'method_not_refundable',
  'not_settled',
  'amount_mismatch',
  'already_refunded',
  'repeated_in_batch',
] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/** `detail`: the interface value behind the reason (the transaction's state or method). */
export type ItemRefusal = { index: number; reason: RefusalReason; detail: string | null };
type ItemFailure = ItemRefusal & { kind: ErrorKind; error: FieldError };

/** A refused request: the API's error, plus each failing item's reason for the console. */
export class RefundRefusal extends AppError {
  readonly refusals: ItemRefusal[];

  constructor(failures: ItemFailure[]) {
    super(failures[0]!.kind, failures[0]!.error.message, { errors: failures.map((failure) => failure.error) });
    this.refusals = failures.map(({ index, reason, detail }) => ({ index, reason, detail }));
  }
}

type Eligible = {
  index: number;
  transactionId: string;
  operationId: string;
  amount: bigint;
  currency: string;
};

async function operationOf(tx: Tx, merchant: ActingMerchant, item: RefundItem): Promise<{ id: string } | null> {
  if (item.merchant_operation_number !== null) {
    return tx.operation.findUnique({
      where: {
        merchantId_merchantOperationNumber: { merchantId: merchant.id, merchantOperationNumber: item.merchant_operation_number },
      },
      select: { id: true },
    });
  }
  if (item.transaction_id === null || !isUuid(item.transaction_id)) return null;
  const transaction = await tx.transaction.findFirst({
    where: { id: item.transaction_id.toLowerCase(), merchantId: merchant.id },
    select: { operationId: true },
  });
  return transaction && { id: transaction.operationId };
}

async function checkItem(
  tx: Tx,
  merchant: ActingMerchant,
  item: RefundItem,
  index: number,
  claimed: Set<string>,
): Promise<Eligible | ItemFailure> {
  const field = (name: string) => `operations[${index}].${name}`;
  const fail = (
    kind: ErrorKind,
    name: string,
    message: string,
    reason: RefusalReason,
    detail: string | null = null,
  ): ItemFailure => ({ index, reason, detail, kind, error: { field: field(name), code: kind.toLowerCase(), message } });
  const operation = await operationOf(tx, merchant, item);
  if (!operation) {
    return item.merchant_operation_number === null
      ? fail('NOT_FOUND', 'transaction_id', 'no such transaction for this merchant', 'not_found')
      : fail('NOT_FOUND', 'merchant_operation_number', 'no such operation for this merchant', 'not_found');
  }
  if (item.transaction_id !== null && !isUuid(item.transaction_id)) {
    return fail('NOT_FOUND', 'transaction_id', 'no such transaction in this operation', 'not_found');
  }
  // The method decides before the state: a QR operation is 422 whatever its state.
  const transactions = await tx.$queryRaw<
    { id: string; method: PaymentMethod; state: TransactionState; amount: bigint; currency: string }[]
  >`SELECT id, method, state, amount, currency FROM transactions
    WHERE operation_id = ${operation.id}::uuid
      AND ${item.transaction_id === null ? Prisma.sql`TRUE` : Prisma.sql`id = ${item.transaction_id}::uuid`}
    ORDER BY (state = 'LIQUIDADO') DESC, attempt DESC LIMIT 1 FOR UPDATE`;
  const transaction = transactions[0];
  if (!transaction) return fail('NOT_FOUND', 'transaction_id', 'no such transaction in this operation', 'not_found');
  if (!REFUNDABLE_METHODS.includes(transaction.method)) {
    return fail(
      'METHOD_RULE',
      'transaction_id',
      `${transaction.method} payments cannot be refunded`,
      'method_not_refundable',
      transaction.method,
    );
  }
  if (transaction.state !== 'LIQUIDADO') {
    const message =
      item.transaction_id === null
        ? 'the operation has no LIQUIDADO transaction'
        : `only LIQUIDADO transactions can be refunded (state is ${transaction.state})`;
    return fail('STATE_CONFLICT', 'transaction_id', message, 'not_settled', transaction.state);
  }
  if (item.refund_amount !== null && BigInt(item.refund_amount) !== transaction.amount) {
    return fail(
      'VALIDATION',
      'refund_amount',
      `must equal the transaction amount ${transaction.amount.toString()} for a TOTAL refund`,
      'amount_mismatch',
    );
  }
  const live = await tx.refund.findUnique({ where: { activeTransactionId: transaction.id }, select: { id: true } });
  if (live || claimed.has(transaction.id)) {
    const reason = live ? 'already_refunded' : 'repeated_in_batch';
    return fail('STATE_CONFLICT', 'transaction_id', 'the transaction already has a refund', reason);
  }
  claimed.add(transaction.id);
  return {
    index,
    transactionId: transaction.id,
    operationId: operation.id,
    amount: transaction.amount,
    currency: transaction.currency,
  };
}

export async function requestRefunds(prisma: Db, merchant: ActingMerchant, body: { operations: readonly RefundItem[] }) {
  try {
    return await prisma.$transaction(async (tx) => {
      const claimed = new Set<string>();
      const checked: (Eligible | ItemFailure)[] = [];
      for (const [index, item] of body.operations.entries()) checked.push(await checkItem(tx, merchant, item, index, claimed));
      const failures = checked.filter((entry): entry is ItemFailure => 'kind' in entry);
      if (failures.length > 0) throw new RefundRefusal(failures);
      const refunds = await registerRefunds(
        tx,
        (checked as Eligible[]).map((entry) => {
          const item = body.operations[entry.index]!;
          return {
            id: randomUUID(),
            merchantId: merchant.id,
            operationId: entry.operationId,
            transactionId: entry.transactionId,
            activeTransactionId: entry.transactionId,
            type: item.type,
            refundAmount: item.refund_amount === null ? entry.amount : BigInt(item.refund_amount),
            transactionAmount: entry.amount,
            currency: entry.currency,
            additionalFields: item.additional_fields,
          };
        }),
      );
      return {
        success: 'true' as const,
        action: 'refund' as const,
        merchant_code: merchant.code,
        operations: refunds,
        meta: successMeta(),
      };
    });
  } catch (error) {
    // Two requests racing for one transaction: the unique live-refund key lets one win.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      throw new AppError('STATE_CONFLICT', 'the transaction already has a refund');
    }
    throw error;
  }
}
