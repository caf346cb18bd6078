import { moneyBackCall } from '@/server/modules/processors/bulkheads';
import { waitAway } from '@/server/platform/http/time-away';
import { Prisma } from '@/generated/prisma/client';
import { env } from '@/env';
import type { Db, Tx } from '@/server/platform/db/client';
import type { ActingMerchant } from '@/server/modules/access/acting-merchant';
import { AppError } from '@/server/core/domain/errors';
import { decideCancel, type TransactionState } from '@/server/core/domain/states';
import { toTimeObject } from '@/server/core/domain/time';
import { transactionReference, type StoredTransaction } from '@/server/payments';
import { connectorForTransaction } from '@/server/modules/processors/connectors';
import { lockOperation } from './lock-operation';
import { askedSelect } from './transaction-view';
import { logError } from '@/server/platform/log';
import { moveTransaction, type MoveData } from './moves/move-transaction';
import { operationReply } from './operation-reply';
import { cancelledBy, reversedBy } from '@/server/core/domain/state-reasons';
import { latestAttempt } from './attempts/in-flight';
import { dropVaultedCard } from './card-vault';

// DELETE /charges/{merchant_code}/{merchant_operation_number} (docs/interface.md 4.4, docs/DESIGN.md 6).
//
// A payment its processor must reverse or void is held (`undo_until`) while the processor is
// asked, outside any database transaction: a real processor can take seconds, and on the
// embedded database a transaction open across that call would hold the only connection and
// stall every other request. While held, no other move applies to it (settlement, expiry, the
// payer's page, a processor's notification); a second DELETE waits for the first's answer.

type Latest = Undoable & { state: TransactionState; processorResponse: Prisma.JsonValue };
type Reply = Awaited<ReturnType<typeof operationReply>>;
type Step =
  | { kind: 'done'; reply: Reply }
  /** Another DELETE, or a capture, is asking the processor: this one is served after it. */
  | { kind: 'held'; by: 'cancellation' | 'capture' }
  | { kind: 'ask'; latest: Latest; to: 'CANCELADO' | 'EXTORNADO'; holdUntil: Date };

/** How long a second DELETE waits for the one asking the processor before it is told to ask again. */
const WAIT_FOR_HOLD_MS = 15_000;

/**
 * Who asks and why: `api`, a console user, or the worker voiding an authorization whose capture
 * window passed (`uncapturedOnly`: a payment captured or being captured meanwhile is left alone).
 */
export type Canceller = { actor: string; reason?: string; uncapturedOnly?: boolean };

export async function cancelOperation(
  prisma: Db,
  merchant: ActingMerchant,
  merchantOperationNumber: string,
  canceller: Canceller = { actor: 'api' },
) {
  const waitUntil = Date.now() + WAIT_FOR_HOLD_MS;
  for (;;) {
    const step = await prisma.$transaction((tx) => decide(tx, merchant, merchantOperationNumber, canceller));
    if (step.kind === 'done') return step.reply;
    if (step.kind === 'ask') return askAndSettle(prisma, merchant, merchantOperationNumber, canceller, step);
    if (Date.now() > waitUntil) {
      const what = step.by === 'capture' ? 'A capture' : 'A cancellation';
      throw new AppError('STATE_CONFLICT', `${what} of this payment is waiting for its processor; try again shortly.`);
    }
    await waitAway(50);
  }
}

/** Under the operation's lock: refuses, answers a payment already ended, moves one no processor must undo, or holds it. */
async function decide(tx: Tx, merchant: ActingMerchant, merchantOperationNumber: string, canceller: Canceller): Promise<Step> {
  const operation = await lockOperation(tx, merchant.id, merchantOperationNumber);
  if (!operation) throw new AppError('NOT_FOUND', 'no such operation for this merchant');
  const payment = await latestAttempt(tx, operation.id, {
    ...askedSelect,
    state: true,
    processorResponse: true,
    statusCheckAt: true,
    undoUntil: true,
    captureStatus: true,
  });
  if (payment.undoUntil !== null && payment.undoUntil > new Date()) return { kind: 'held', by: 'cancellation' };
  if (canceller.uncapturedOnly && !(payment.state === 'AUTORIZADO' && payment.captureStatus === 'UNCAPTURED')) {
    throw new AppError('STATE_CONFLICT', 'the payment is no longer an uncaptured authorization');
  }
  // A capture under way is served first: this DELETE then voids what it captured (or, refused,
  // the authorization), so a capture and a void never both stand.
  if (payment.captureStatus === 'CAPTURING') return { kind: 'held', by: 'capture' };
  // An attempt still with its processor, or whose answer is being verified, may yet be
  // approved: cancelling it now could leave a payment charged and shown cancelled.
  if (payment.state === 'REGISTRADO' || (payment.state === 'PENDIENTE' && payment.statusCheckAt !== null)) {
    throw new AppError('STATE_CONFLICT', 'The processor has not answered this payment yet; try again once it has.');
  }
  const decision = decideCancel(payment.state, payment.method);
  if (decision.kind === 'refused') {
    throw new AppError(decision.reason === 'method' ? 'METHOD_RULE' : 'STATE_CONFLICT', decision.message);
  }
  const done = async (): Promise<Step> => ({
    kind: 'done',
    reply: await operationReply(tx, merchant, merchantOperationNumber, operation),
  });
  if (decision.kind === 'already') return done();
  // A card waiting for its 3-D Secure challenge was never sent to a processor: it is cancelled
  // here, and its card leaves the vault with it (docs/ORCHESTRATION.md 5).
  if (decision.to === 'CANCELADO' && payment.method === 'CARD') {
    await moveTransaction(tx, payment.id, payment.state, 'CANCELADO', cancelledData(canceller.actor));
    await dropVaultedCard(tx, payment.id);
    return done();
  }
  // Raw, so that updated_at (the settlement cut-off's clock) stays the authorization's.
  const holdUntil = new Date(Date.now() + holdMs());
  await tx.$executeRaw`UPDATE transactions SET undo_until = ${holdUntil} WHERE id = ${payment.id}::uuid`;
  return { kind: 'ask', latest: payment, to: decision.to, holdUntil };
}

/** The processor undoes its part first, outside any database transaction; a refusal leaves the payment as it was. */
async function askAndSettle(
  prisma: Db,
  merchant: ActingMerchant,
  merchantOperationNumber: string,
  { actor, reason }: Canceller,
  { latest, to, holdUntil }: Extract<Step, { kind: 'ask' }>,
) {
  const reversal = to === 'EXTORNADO';
  let reverseCode: string | null;
  try {
    reverseCode = await undoAtProcessor(prisma, latest, reversal);
  } catch (error) {
    await prisma.$executeRaw`
      UPDATE transactions SET undo_until = NULL WHERE id = ${latest.id}::uuid AND undo_until = ${holdUntil}`;
    throw error;
  }
  return prisma.$transaction(async (tx) => {
    const operation = await lockOperation(tx, merchant.id, merchantOperationNumber);
    const at = new Date();
    const data: MoveData = reversal
      ? {
          stateReason: reason ?? reversedBy(actor),
          expiresAt: null,
          // A reversal keeps the authorization data and adds its own.
          processorResponse: {
            ...(latest.processorResponse as Prisma.JsonObject),
            reverse_date: toTimeObject(at, 'seconds').utc_time,
            reverse_code: reverseCode!,
          },
        }
      : cancelledData(actor);
    const moved = await moveTransaction(tx, latest.id, latest.state, to, { ...data, undoUntil: null }, at, { overHold: true });
    if (!moved) {
      // Another DELETE that took over an expired hold may have moved it already; anything else
      // moved it after the hold ran out, while the processor was undoing it.
      const now = await tx.transaction.findUniqueOrThrow({ where: { id: latest.id }, select: { state: true } });
      if (now.state !== to) {
        logError('processor undid a payment that moved on after its hold ran out', null, {
          transaction_id: latest.id,
          state: now.state,
          undone_as: to,
        });
        throw new AppError('STATE_CONFLICT', `The payment moved to ${now.state} while its processor was undoing it.`);
      }
    }
    return operationReply(tx, merchant, merchantOperationNumber, operation!);
  });
}

/** A cancelled payment's code, QR or link is void, so its processor response goes. */
function cancelledData(actor: string): MoveData {
  return { stateReason: cancelledBy(actor), expiresAt: null, processorResponse: Prisma.DbNull };
}

/** The hold outlasts every call a connector's reverse may make (each bounded by its timeout). */
function holdMs(): number {
  const config = env();
  return 4 * Math.max(config.PROCESSOR_TIMEOUT_MS, config.SANDBOX_TIMEOUT_MS) + 5_000;
}

type Undoable = StoredTransaction & { connectorId: string | null; processorReference: string | null; createdAt: Date };

/**
 * What the processor that carried the payment does first (docs/ORCHESTRATION.md 3): reverses an
 * authorization (its reversal code), or voids a payment order nobody paid so it can no longer be
 * paid (a processor whose payer pages are the service's own has nothing to void). A processor
 * that refuses leaves the payment as it was.
 */
async function undoAtProcessor(db: Db, transaction: Undoable, reversal: boolean): Promise<string | null> {
  const reference = transactionReference(transaction);
  const connector = await connectorForTransaction(db, { connectorId: transaction.connectorId, method: reference.method });
  const result = await moneyBackCall(connector, () => connector.reverse(reference));
  if (result.outcome === 'reversed') return reversal ? result.code : null;
  if (result.outcome === 'refused') throw new AppError('STATE_CONFLICT', `The processor refused: ${result.reason}`);
  // Its answer was lost or it could not be asked: it may have done it, so the payment stays as it
  // was and the caller asks again, which finds where the processor stands.
  if (result.outcome === 'unavailable') {
    throw new AppError('UNAVAILABLE', 'The processor could not be asked now; try again', { headers: { 'retry-after': '5' } });
  }
  if (!reversal) return null;
  throw new AppError('METHOD_RULE', `${reference.method} payments cannot be reversed`);
}
