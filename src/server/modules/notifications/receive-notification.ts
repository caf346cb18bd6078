import type { Prisma } from '@/generated/prisma/client';
import type { Db, Tx } from '@/server/platform/db/client';
import { isUuid } from '@/server/core/domain/uuid';
import { logError, logInfo } from '@/server/platform/log';
import { PROCESSORS, type PaymentChange } from '@/server/payments';
import { applyVerdict } from '@/server/modules/charges/attempts/apply-verdict';
import { movedTransactionSelect } from '@/server/modules/charges/moves/record-transaction-moves';
import { notificationVerdict } from '@/server/modules/charges/verdict';
import { moveRefund } from '@/server/modules/refunds/refund-moves';
import { connectorById } from '@/server/modules/processors/connectors';

// A processor's notification about one of a merchant's accounts (docs/processors/README.md), at
// {base_url}/notifications/<processor>/<account id>: the account's connector verifies it (a
// signature, or the credentials set on the webhook) and reads the payment it names from the
// processor; then, in one database transaction, the notification is recorded by the
// processor's id of it (a retried or replayed one changes nothing twice) and the payment moves as
// the processor says it stands, each move with its lifecycle entry and its event, so the merchant
// hears of it by callback.

export type NotificationOutcome =
  | { kind: 'unknown_account' }
  | { kind: 'refused'; reason: string }
  | { kind: 'malformed'; reason: string }
  | { kind: 'unavailable' }
  | { kind: 'received'; duplicate: boolean; outcome: string };

type Input = {
  processor: string;
  accountId: string;
  headers: { get(name: string): string | null };
  query: URLSearchParams;
  body: string;
};

type Locked = {
  id: string;
  merchant_id: string;
  connector_id: string | null;
  method: string;
  state: string;
  status_check_at: Date | null;
  processor_response: Prisma.JsonObject | null;
  held: boolean;
};

/** The payment is held by a cancellation asking this processor: the notification is refused for now and sent again. */
class HeldByCancellation extends Error {}

/** Whether the attempt in flight `transactionId` is this account's. */
async function inFlightHere(tx: Tx, transactionId: string, account: { merchantId: string; connectorId: string }) {
  const claim = await tx.chargeClaim.findUnique({ where: { transactionId }, select: { merchantId: true, connectorId: true } });
  return claim?.merchantId === account.merchantId && claim.connectorId === account.connectorId;
}

/** What the payment does for the change, within the caller's transaction; the outcome recorded. */
async function apply(tx: Tx, payment: Locked, change: PaymentChange, at: Date): Promise<string> {
  if (change.kind === 'refunded') {
    // A refund of ours the processor had in process is resolved; one made elsewhere is not ours to record.
    const refunds = await tx.refund.findMany({
      where: { transactionId: payment.id, state: 'IN_PROCESS' },
      select: { id: true },
    });
    let moved = false;
    for (const refund of refunds) moved = (await moveRefund(tx, refund.id, 'IN_PROCESS', 'RESOLVED', at)) || moved;
    return moved ? 'moved' : 'unchanged';
  }
  const verdict = notificationVerdict(
    {
      method: payment.method,
      state: payment.state,
      statusCheckAt: payment.status_check_at,
      processorResponse: payment.processor_response,
    },
    change,
  );
  // The processor took money for a payment the service had already ended (a CIP paid at its
  // expiry, an approval after the service gave up): no move may undo that end, so an operator
  // must settle it with the processor and the merchant. Recorded and raised, never dropped.
  if (verdict === 'late_approval') {
    logError('processor approved a payment the service had ended', null, { transaction_id: payment.id, state: payment.state });
    return 'late_approval';
  }
  if (!verdict) return 'unchanged';
  const { merchantId, operation, ...row } = await tx.transaction.findUniqueOrThrow({
    where: { id: payment.id },
    select: movedTransactionSelect,
  });
  const audience = {
    merchantId,
    merchantCode: operation.merchant.code,
    merchantOperationNumber: operation.merchantOperationNumber,
  };
  const moved = await applyVerdict(tx, { row, audience, written: 'row' }, verdict, at, { inTransaction: true });
  return moved ? 'moved' : 'unchanged';
}

export async function receiveNotification(prisma: Db, input: Input): Promise<NotificationOutcome> {
  if (!(PROCESSORS as readonly string[]).includes(input.processor) || !isUuid(input.accountId))
    return { kind: 'unknown_account' };
  const account = await prisma.processorAccount.findUnique({
    where: { id: input.accountId },
    select: { id: true, merchantId: true, processor: true, connectorId: true },
  });
  if (!account || account.processor !== input.processor) return { kind: 'unknown_account' };
  const connector = await connectorById(prisma, account.connectorId);
  if (!connector) return { kind: 'unknown_account' };
  const receivedAt = new Date();
  // Asked outside any database transaction: the processor's answer can take seconds.
  const result = await connector.notification({ headers: input.headers, query: input.query, body: input.body, receivedAt });
  if (result.outcome === 'not_supported') return { kind: 'unknown_account' };
  if (result.outcome === 'unavailable') return { kind: 'unavailable' };
  if (result.outcome === 'malformed') return { kind: 'malformed', reason: result.reason };
  if (result.outcome === 'refused') {
    logInfo('processor notification refused', { account: account.id, processor: account.processor, reason: result.reason });
    return { kind: 'refused', reason: result.reason };
  }
  const received = await prisma
    .$transaction(async (tx) => {
      const [recorded] = await tx.$queryRaw<{ id: bigint }[]>`
      INSERT INTO processor_notifications (account_id, external_id, kind, resource, outcome)
      VALUES (${account.id}::uuid, ${result.externalId.slice(0, 200)}, ${result.kind.slice(0, 100)}, ${result.resource.slice(0, 200)}, 'received')
      ON CONFLICT (account_id, external_id) DO NOTHING RETURNING id`;
      if (!recorded) return { duplicate: true, outcome: 'duplicate' };
      let outcome = 'not_ours';
      if (result.transactionId !== null && isUuid(result.transactionId)) {
        const [payment] = await tx.$queryRaw<Locked[]>`
        SELECT id, merchant_id, connector_id, method, state, status_check_at, processor_response,
          coalesce(undo_until > now(), false) AS held
        FROM transactions WHERE id = ${result.transactionId}::uuid FOR UPDATE`;
        // Only a payment this very account carried: a notification cannot move another's.
        if (payment && payment.merchant_id === account.merchantId && payment.connector_id === account.connectorId) {
          if (payment.held) throw new HeldByCancellation();
          outcome = await apply(tx, payment, result.change, receivedAt);
        } else if (!payment && (await inFlightHere(tx, result.transactionId, account))) {
          // The processor notifies while the service still waits for its answer: the answer
          // settles the attempt (no verdict comes of a notification for an attempt in flight).
          outcome = 'unchanged';
        }
      }
      await tx.processorNotification.update({ where: { id: recorded.id }, data: { outcome } });
      return { duplicate: false, outcome };
    })
    .catch((error: unknown) => {
      if (error instanceof HeldByCancellation) return null;
      throw error;
    });
  // Not recorded: the processor sends it again once the cancellation has its answer.
  if (received === null) return { kind: 'unavailable' };
  logInfo('processor notification', { account: account.id, kind: result.kind, ...received });
  return { kind: 'received', ...received };
}
