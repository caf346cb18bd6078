import type { Db } from '@/server/platform/db/client';
import { AppError } from '@/server/core/domain/errors';
import { STATE_REASONS } from '@/server/core/domain/state-reasons';
import { logError, logInfo } from '@/server/platform/log';
import { transactionReference, type CaptureResult } from '@/server/payments';
import { connectorForTransaction } from '@/server/modules/processors/connectors';
import { actingMerchantSelect, toActingMerchant } from '@/server/modules/access/acting-merchant';
import { statusWithin } from './attempts/ask-processor';
import { askProcessor, captureSelect, writeAnswer, type CapturedPayment } from './capture-payment';
import { cancelOperation } from './cancel-operation';

// The worker's two capture jobs (docs/DECISIONS.md "Capture later"):
// - the capture sync: a capture whose processor did not answer (or whose instance stopped while
//   it asked) is asked about first (the status inquiry of docs/ORCHESTRATION.md 3), and captured
//   again only when the processor says nothing was; a connector's capture is one per
//   authorization, so even a second ask never captures twice;
// - the capture window: an authorization still uncaptured at its capture_before is voided at
//   its processor and EXTORNADO, as a DELETE would, with its reason and event. One its processor
//   refuses or cannot be asked about is tried again after VOID_RETRY_MS (`capture_check_at`,
//   unused while a payment is UNCAPTURED), so a few that cannot be voided never hold up the rest.

const BATCH = 20;
/** A capture claimed by one worker is not claimed by another for this long (its inquiry and capture together take less). */
const LEASE_MS = 2 * 60_000;
/** A capture the processor still cannot confirm is asked about again this often. */
const RETRY_MS = 10_000;
/** A void of an expired authorization that failed is tried again this often. */
const VOID_RETRY_MS = 60_000;

/** Returns how many captures in doubt were settled (captured or refused). */
export async function syncCaptures(prisma: Db, now = new Date()): Promise<number> {
  let settled = 0;
  for (let taken = 0; taken < BATCH; taken += 1) {
    const [claimed] = await prisma.$queryRaw<{ id: string }[]>`
      UPDATE transactions SET capture_check_at = ${new Date(Date.now() + LEASE_MS)}
      WHERE id IN (
        SELECT id FROM transactions
        WHERE capture_check_at <= ${now} AND capture_status = 'CAPTURING'
        ORDER BY capture_check_at LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING id`;
    if (!claimed) break;
    const payment = await prisma.transaction.findUniqueOrThrow({ where: { id: claimed.id }, select: captureSelect });
    try {
      const result = await settleInDoubt(prisma, payment);
      await writeAnswer(prisma, payment, result, new Date(Date.now() + RETRY_MS));
      if (result.outcome === 'captured' || result.outcome === 'refused') settled += 1;
      logInfo('capture_synced', { transaction_id: payment.id, outcome: result.outcome });
    } catch (error) {
      // Asked again once its lease runs out.
      logError('capture sync failed', error, { transaction_id: payment.id });
    }
  }
  return settled;
}

/** What the processor says of a capture in doubt, capturing it only when it says nothing was. */
async function settleInDoubt(prisma: Db, payment: CapturedPayment): Promise<CaptureResult> {
  const reference = transactionReference(payment);
  const connector = await connectorForTransaction(prisma, { connectorId: payment.connectorId, method: reference.method });
  const status = await statusWithin(connector, reference);
  if (status.outcome === 'approved' && status.capturedAmount !== undefined && status.capturedAmount !== null) {
    return status.capturedAmount === payment.captureRequested
      ? { outcome: 'captured' }
      : { outcome: 'refused', reason: `the processor captured ${status.capturedAmount.toString()}` };
  }
  if (status.outcome === 'declined' || status.outcome === 'not_found') {
    return { outcome: 'refused', reason: 'the processor does not hold this authorization' };
  }
  if (status.outcome === 'unknown') return { outcome: 'unavailable' };
  return askProcessor(prisma, payment);
}

/** Voids the authorizations whose capture window has passed; returns how many. */
export async function voidUncaptured(prisma: Db, now = new Date()): Promise<number> {
  const due = await prisma.transaction.findMany({
    where: {
      state: 'AUTORIZADO',
      captureStatus: 'UNCAPTURED',
      captureBefore: { lte: now },
      OR: [{ captureCheckAt: null }, { captureCheckAt: { lte: now } }],
    },
    select: {
      id: true,
      operation: { select: { merchantOperationNumber: true, merchant: { select: actingMerchantSelect } } },
    },
    orderBy: { captureBefore: 'asc' },
    take: BATCH,
  });
  let voided = 0;
  for (const { id, operation } of due) {
    try {
      await cancelOperation(prisma, toActingMerchant(operation.merchant), operation.merchantOperationNumber, {
        actor: 'worker',
        reason: STATE_REASONS.captureWindowPassed,
        uncapturedOnly: true,
      });
      voided += 1;
    } catch (error) {
      // Captured or being captured meanwhile, or voided by another worker: the row says so and
      // is not due again. Refused or unanswered: asked again on a later pass.
      const { count } = await prisma.transaction.updateMany({
        where: { id, state: 'AUTORIZADO', captureStatus: 'UNCAPTURED' },
        data: { captureCheckAt: new Date(Date.now() + VOID_RETRY_MS) },
      });
      if (count > 0 && !(error instanceof AppError && error.kind === 'UNAVAILABLE')) {
        logError('capture window void failed', error, { merchant_operation_number: operation.merchantOperationNumber });
      }
    }
  }
  return voided;
}
