import { randomUUID } from 'node:crypto';
import { Prisma } from '@/generated/prisma/client';
import type { Db, Tx } from '@/server/platform/db/client';
import type { ActingMerchant } from '@/server/modules/access/acting-merchant';
import { AppError, type ErrorKind, type FieldError } from '@/server/core/domain/errors';
import { successMeta } from '@/server/core/domain/envelope';
import { REFUNDABLE_METHODS, type PaymentMethod, type TransactionState } from '@/server/core/domain/states';
import { isUuid } from '@/server/core/domain/uuid';
import type { RefundRequest } from '@/server/core/interface/refund';
import { decideRefundAmount } from '@/server/core/domain/money-movements';
import { registerRefunds } from './refund-moves';
import { capabilitiesForTransaction } from '@/server/modules/processors/connectors';
import { claimAsTransaction } from '@/server/modules/charges/attempts/in-flight';

// POST /refund (docs/interface.md 4.5, docs/DESIGN.md 7): all-or-nothing; the answer carries the status of
// the first failing item and `errors` lists every failing item.

/**
 * One refund to file. The console names a transaction by its id alone: `merchant_operation_number`
 * null (the operation is the transaction's) and `refund_amount` null (all of what is refundable).
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
  'exceeds_refundable',
  'partial_not_supported',
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
  amount: bigint;
  refundAmount: bigint;
  currency: string;
};

/** What a request refunds of each transaction so far: later items of the same transaction add to it. */
type Claimed = Map<string, { type: RefundItem['type']; amount: bigint }>;

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
  const where = { merchantId: merchant.id };
  const transaction =
    (await tx.transaction.findFirst({
      where: { id: item.transaction_id.toLowerCase(), ...where },
      select: { operationId: true },
    })) ??
    (await tx.chargeClaim.findFirst({
      where: { transactionId: item.transaction_id.toLowerCase(), ...where },
      select: { operationId: true },
    }));
  return transaction && { id: transaction.operationId };
}

/** The operation's attempt in flight (the one named, if any), which is its latest: nothing to refund yet. */
async function inFlight(tx: Tx, operationId: string, transactionId: string | null) {
  const claim = await tx.chargeClaim.findUnique({ where: { operationId } });
  if (!claim || (transactionId !== null && claim.transactionId !== transactionId.toLowerCase())) return null;
  return claimAsTransaction(claim);
}

async function checkItem(
  tx: Tx,
  merchant: ActingMerchant,
  item: RefundItem,
  index: number,
  claimed: Claimed,
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
  // The method decides before the state: a QR operation is 422 whatever its state. The row lock
  // orders refunds of one transaction, so the sum of its refunds is read after the one before it.
  const transactions = await tx.$queryRaw<
    {
      id: string;
      method: PaymentMethod;
      state: TransactionState;
      amount: bigint;
      currency: string;
      capturedAmount: bigint | null;
      refundedAmount: bigint;
      connectorId: string | null;
    }[]
  >`SELECT id, method, state, amount, currency, captured_amount AS "capturedAmount", refunded_amount AS "refundedAmount",
           connector_id AS "connectorId"
    FROM transactions
    WHERE operation_id = ${operation.id}::uuid
      AND ${item.transaction_id === null ? Prisma.sql`TRUE` : Prisma.sql`id = ${item.transaction_id}::uuid`}
    ORDER BY (state = 'LIQUIDADO') DESC, attempt DESC LIMIT 1 FOR UPDATE`;
  const transaction =
    transactions[0]?.state === 'LIQUIDADO'
      ? transactions[0]
      : ((await inFlight(tx, operation.id, item.transaction_id)) ?? transactions[0]);
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
  // A processor that refunds only in whole is never sent a part (it would return everything).
  if (item.type === 'PARTIAL' && !(await capabilitiesForTransaction(tx, transaction)).partialRefund) {
    return fail(
      'METHOD_RULE',
      'type',
      'the processor that carried this payment refunds only in whole: use a TOTAL refund',
      'partial_not_supported',
    );
  }
  const earlier = claimed.get(transaction.id);
  if (earlier !== undefined && (item.type === 'TOTAL' || earlier.type === 'TOTAL')) {
    return fail('STATE_CONFLICT', 'transaction_id', 'the request refunds this transaction in full already', 'repeated_in_batch');
  }
  const decision = decideRefundAmount(item.type, item.refund_amount === null ? null : BigInt(item.refund_amount), {
    ...transaction,
    refundedAmount: transaction.refundedAmount + (earlier?.amount ?? 0n),
  });
  if (decision.kind === 'refused') {
    // A TOTAL amount that is not the payment's is the request's mistake; one over what earlier
    // refunds left depends on them, a state rule.
    return decision.reason === 'amount_mismatch'
      ? fail('VALIDATION', 'refund_amount', decision.message, decision.reason)
      : fail(
          'STATE_CONFLICT',
          decision.reason === 'exceeds_refundable' ? 'refund_amount' : 'transaction_id',
          decision.message,
          decision.reason,
        );
  }
  claimed.set(transaction.id, { type: item.type, amount: (earlier?.amount ?? 0n) + decision.amount });
  return {
    index,
    transactionId: transaction.id,
    amount: transaction.amount,
    refundAmount: decision.amount,
    currency: transaction.currency,
  };
}

export async function requestRefunds(prisma: Db, merchant: ActingMerchant, body: { operations: readonly RefundItem[] }) {
  try {
    return await prisma.$transaction(async (tx) => {
      const claimed: Claimed = new Map();
      const checked: (Eligible | ItemFailure)[] = [];
      for (const [index, item] of body.operations.entries()) checked.push(await checkItem(tx, merchant, item, index, claimed));
      const failures = checked.filter((entry): entry is ItemFailure => 'kind' in entry);
      if (failures.length > 0) throw new RefundRefusal(failures);
      const refunds = await registerRefunds(
        tx,
        (checked as Eligible[]).map((entry) => ({
          id: randomUUID(),
          merchantId: merchant.id,
          transactionId: entry.transactionId,
          type: body.operations[entry.index]!.type,
          refundAmount: entry.refundAmount,
          transactionAmount: entry.amount,
          currency: entry.currency,
          additionalFields: body.operations[entry.index]!.additional_fields,
        })),
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
    // The database's own bound (refunded_amount within what was captured): never reached while
    // the row lock orders the refunds of a transaction, kept for what a bug might let through.
    if (error instanceof Prisma.PrismaClientKnownRequestError && /refunded_amount_check/.test(String(error.message))) {
      throw new AppError('STATE_CONFLICT', 'the refunds would pass what can be refunded');
    }
    throw error;
  }
}
