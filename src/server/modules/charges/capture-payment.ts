import { type Prisma } from '@/generated/prisma/client';
import { env } from '@/env';
import type { Db, Tx } from '@/server/platform/db/client';
import type { ActingMerchant } from '@/server/modules/access/acting-merchant';
import { AppError } from '@/server/core/domain/errors';
import { decideCapture } from '@/server/core/domain/money-movements';
import { logError } from '@/server/platform/log';
import { transactionReference, type CaptureResult } from '@/server/payments';
import { capabilitiesForTransaction, connectorForTransaction } from '@/server/modules/processors/connectors';
import { captureWithin } from './attempts/ask-processor';
import { lockOperation } from './lock-operation';
import { moveCapture } from './moves/move-capture';
import { operationReply } from './operation-reply';
import { latestAttempt } from './attempts/in-flight';
import { askedSelect } from './transaction-view';

// POST /charges/{merchant_code}/{merchant_operation_number}/capture (docs/DECISIONS.md "Capture
// later"). Under the operation's lock (which DELETE takes too) the capture is claimed: the
// transaction goes CAPTURING with the amount and a time the worker's capture sync may ask about
// it (`capture_check_at`, after every call the capture may make), so a second capture is 409 and
// a process that dies while its processor is asked leaves a capture the sync settles. The
// processor is asked outside any database transaction; its answer is written under the lock.

/** When a capture's answer was lost, the capture sync asks first after this long. */
const FIRST_CHECK_MS = 2_000;

/** The columns a capture reads: the payment, how the processor knows it, and its capture. */
export const captureSelect = {
  ...askedSelect,
  state: true,
  captureStatus: true,
  captureRequested: true,
  captureCheckAt: true,
  undoUntil: true,
} satisfies Prisma.TransactionSelect;

export type CapturedPayment = Prisma.TransactionGetPayload<{ select: typeof captureSelect }>;

export async function capturePayment(
  prisma: Db,
  merchant: ActingMerchant,
  merchantOperationNumber: string,
  amount: bigint | null,
) {
  const { operation, payment } = await prisma.$transaction((tx) => claimCapture(tx, merchant, merchantOperationNumber, amount));
  const result = await askProcessor(prisma, payment);
  // Captured: the answer and the reply in one transaction (the reply reads what it wrote).
  if (result.outcome === 'captured') {
    return prisma.$transaction(async (tx) => {
      await writeAnswerIn(tx, payment, result);
      return operationReply(tx, merchant, merchantOperationNumber, operation);
    });
  }
  await writeAnswer(prisma, payment, result);
  if (result.outcome === 'refused') throw new AppError('STATE_CONFLICT', `The processor refused the capture: ${result.reason}`);
  if (result.outcome === 'not_supported') {
    throw new AppError('METHOD_RULE', 'the processor that authorized this payment does not capture separately');
  }
  // Nothing known yet: the capture sync asks the processor (never a second capture there).
  throw new AppError('UNAVAILABLE', 'The processor has not confirmed the capture yet; ask again shortly', {
    headers: { 'retry-after': '5' },
  });
}

/** Under the operation's lock: refuses, or marks the latest attempt CAPTURING with its amount. */
async function claimCapture(tx: Tx, merchant: ActingMerchant, merchantOperationNumber: string, amount: bigint | null) {
  const operation = await lockOperation(tx, merchant.id, merchantOperationNumber);
  if (!operation) throw new AppError('NOT_FOUND', 'no such operation for this merchant');
  const payment = await latestAttempt(tx, operation.id, captureSelect);
  if (payment.undoUntil !== null && payment.undoUntil > new Date()) {
    throw new AppError('STATE_CONFLICT', 'a cancellation of this payment is under way');
  }
  const decision = decideCapture(payment, amount);
  if (decision.kind === 'refused') {
    throw new AppError(decision.error, decision.message, {
      errors: decision.error === 'VALIDATION' ? [{ field: 'amount', code: 'too_big', message: decision.message }] : [],
    });
  }
  // A part goes only to a processor that captures parts (it would otherwise refuse, or take all).
  if (decision.amount < payment.amount && !(await capabilitiesForTransaction(tx, payment)).partialCapture) {
    throw new AppError('METHOD_RULE', 'the processor that authorized this payment captures only the whole amount', {
      errors: [{ field: 'amount', code: 'partial_capture_not_supported', message: 'must be the authorized amount' }],
    });
  }
  const checkAt = new Date(Date.now() + holdMs());
  // Under the operation's lock nothing moves it meanwhile: a refused move is a bug, not a race.
  if (!(await moveCapture(tx, payment.id, 'UNCAPTURED', { to: 'CAPTURING', amount: decision.amount, checkAt }))) {
    throw new Error(`capture of ${payment.id} could not be claimed`);
  }
  return {
    operation,
    payment: { ...payment, captureStatus: 'CAPTURING', captureRequested: decision.amount, captureCheckAt: checkAt },
  };
}

/** Asks the processor that authorized the payment to capture the claimed amount (one capture, whatever is asked again). */
export async function askProcessor(prisma: Db, payment: CapturedPayment): Promise<CaptureResult> {
  const reference = transactionReference(payment);
  const connector = await connectorForTransaction(prisma, { connectorId: payment.connectorId, method: reference.method });
  return captureWithin(connector, { ...reference, captureAmount: payment.captureRequested! });
}

/**
 * What the processor's answer does to a claimed capture: CAPTURED with its amount and event;
 * back to UNCAPTURED when refused (the merchant may capture again, or the window voids it); in
 * doubt, left CAPTURING for the capture sync. A claim another request or the sync settled
 * meanwhile is left as it is.
 */
export async function writeAnswer(prisma: Db, payment: CapturedPayment, result: CaptureResult, retryAt?: Date): Promise<void> {
  await prisma.$transaction((tx) => writeAnswerIn(tx, payment, result, retryAt));
  if (result.outcome === 'not_supported') {
    logError('a payment to capture later went to a connector that cannot capture', null, { transaction_id: payment.id });
  }
}

async function writeAnswerIn(tx: Tx, payment: CapturedPayment, result: CaptureResult, retryAt?: Date): Promise<void> {
  if (result.outcome === 'captured') {
    await moveCapture(tx, payment.id, 'CAPTURING', { to: 'CAPTURED' });
    return;
  }
  if (result.outcome === 'refused' || result.outcome === 'not_supported') {
    await moveCapture(tx, payment.id, 'CAPTURING', { to: 'UNCAPTURED' });
    return;
  }
  // In doubt: no move, the capture sync asks again then.
  const at = retryAt ?? new Date(Date.now() + FIRST_CHECK_MS);
  await tx.$executeRaw`
    UPDATE transactions SET capture_check_at = ${at} WHERE id = ${payment.id}::uuid AND capture_status = 'CAPTURING'`;
}

/** The claim outlasts every call a connector's capture may make (each bounded by its timeout). */
function holdMs(): number {
  const config = env();
  return 4 * Math.max(config.PROCESSOR_TIMEOUT_MS, config.SANDBOX_TIMEOUT_MS) + 5_000;
}
