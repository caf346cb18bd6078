import { Prisma } from '@/generated/prisma/client';
import type { Db, Tx } from '@/server/db/client';
import type { ActingMerchant } from '@/server/auth/acting-merchant';
import { AppError } from '@/server/domain/errors';
import { successMeta } from '@/server/domain/envelope';
import { decideCancel } from '@/server/domain/states';
import { toTimeObject } from '@/server/domain/time';
import { transactionReference, type StoredTransaction } from '@/server/payments';
import { connectorForTransaction } from './processors/connectors';
import { lockOperation } from './lock-operation';
import { moveTransaction } from './state-moves/move-transaction';
import { toOperationObject, transactionSelect } from './transaction-view';

// DELETE /charges/{merchant_code}/{merchant_operation_number} (docs/interface.md 4.4, docs/DESIGN.md 6).
export async function cancelOperation(prisma: Db, merchant: ActingMerchant, merchantOperationNumber: string, actor = 'api') {
  return prisma.$transaction(async (tx) => {
    const operation = await lockOperation(tx, merchant.id, merchantOperationNumber);
    if (!operation) throw new AppError('NOT_FOUND', 'no such operation for this merchant');
    const latest = await tx.transaction.findFirstOrThrow({
      where: { operationId: operation.id },
      orderBy: { attempt: 'desc' },
      select: {
        id: true,
        state: true,
        method: true,
        amount: true,
        currency: true,
        cardBin: true,
        cardLast4: true,
        processorResponse: true,
        additionalFields: true,
        createdAt: true,
        connectorId: true,
        statusCheckAt: true,
      },
    });
    // An attempt still with its processor, or whose answer is being verified, may yet be
    // approved: cancelling it now could leave a payment charged and shown cancelled.
    if (latest.state === 'REGISTRADO' || (latest.state === 'PENDIENTE' && latest.statusCheckAt !== null)) {
      throw new AppError('STATE_CONFLICT', 'The processor has not answered this payment yet; try again once it has.');
    }
    const decision = decideCancel(latest.state, latest.method);
    if (decision.kind === 'refused') {
      throw new AppError(decision.reason === 'method' ? 'METHOD_RULE' : 'STATE_CONFLICT', decision.message);
    }
    if (decision.kind === 'move') {
      const reversal = decision.to === 'EXTORNADO';
      // The processor undoes its part first: a refusal leaves the payment as it was.
      const reverseCode = await undoAtProcessor(tx, latest, reversal);
      const at = new Date();
      await moveTransaction(
        tx,
        latest.id,
        latest.state,
        decision.to,
        {
          stateReason: reversal ? `Autorización extornada (${actor})` : `Operación cancelada (${actor})`,
          expiresAt: null,
          // A reversal keeps the authorization data and adds its own; a cancelled payment's
          // code, QR or link is void, so its processor response goes.
          processorResponse: reversal
            ? {
                ...(latest.processorResponse as Prisma.JsonObject),
                reverse_date: toTimeObject(at, 'seconds').utc_time,
                reverse_code: reverseCode!,
              }
            : Prisma.DbNull,
        },
        at,
      );
      // A card waiting for its 3-D Secure challenge leaves the vault with the payment (docs/ORCHESTRATION.md 5).
      if (!reversal) await tx.cardVaultEntry.deleteMany({ where: { transactionId: latest.id } });
    }
    const transactions = await tx.transaction.findMany({
      where: { operationId: operation.id },
      orderBy: { attempt: 'asc' },
      select: transactionSelect,
    });
    return {
      success: true as const,
      merchant_code: merchant.code,
      merchant_operation_number: merchantOperationNumber,
      operation: {
        ...toOperationObject(merchantOperationNumber, transactions, 'seconds'),
        created_at: toTimeObject(operation.createdAt, 'seconds'),
      },
      meta: successMeta(),
    };
  });
}

type Undoable = StoredTransaction & { connectorId: string | null; additionalFields: Prisma.JsonValue; createdAt: Date };

/**
 * What the processor that carried the payment does first (docs/ORCHESTRATION.md 3): reverses an
 * authorization (its reversal code), or voids a payment order nobody paid so it can no longer be
 * paid (a processor whose payer pages are the service's own has nothing to void). A processor
 * that refuses leaves the payment as it was. Asked through the transaction that holds the
 * operation's lock: the embedded database would make a query outside it wait for it.
 */
async function undoAtProcessor(tx: Tx, transaction: Undoable, reversal: boolean): Promise<string | null> {
  // A card waiting for its 3-D Secure challenge was never sent to a processor.
  if (!reversal && transaction.method === 'CARD') return null;
  const processorReference = (transaction.additionalFields as { processor_reference?: unknown } | null)?.processor_reference;
  const reference = transactionReference({
    ...transaction,
    processorReference: typeof processorReference === 'string' ? processorReference : null,
  });
  const connector = await connectorForTransaction(tx, { connectorId: transaction.connectorId, method: reference.method });
  const result = await connector.reverse(reference);
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
