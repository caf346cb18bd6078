import { randomInt } from 'node:crypto';
import type { Prisma } from '@/generated/prisma/client';
import type { Db } from '@/server/platform/db/client';
import { toTimeObject } from '@/server/core/domain/time';
import { moveTransaction } from '@/server/modules/charges/moves/move-transaction';
import { abandonMove, isAccountConnector, isPayerToken } from './payer-transaction';
import { STATE_REASONS } from '@/server/core/domain/state-reasons';

// What a payer does on a hosted page: pay (the sandbox processor confirms at once) or
// abandon. The transaction row is locked, so a double click or two tabs make one payment.
export type PayerOutcome =
  | { kind: 'moved'; state: 'AUTORIZADO' | 'CANCELADO' }
  | { kind: 'unchanged'; state: string }
  | { kind: 'expired' }
  | { kind: 'not_found' };

export const CUOTEALO_INSTALLMENTS = [3, 6, 9, 12] as const;

const digits = (count: number) => Array.from({ length: count }, () => randomInt(10)).join('');

/**
 * The processor response of a payment its payer completed (docs/interface.md 2.8): the
 * processor's operation id (a sandbox one is drawn), when, and the method's success code.
 */
export function paidResponse(
  method: string,
  previous: Prisma.JsonObject | null,
  at: Date,
  installments: number | null,
  operationId = digits(method === 'PAGOEFECTIVO' ? 10 : 12),
): Prisma.InputJsonObject {
  const paymentDate = toTimeObject(at, 'millis').utc_time;
  switch (method) {
    case 'BANK_TRANSFER':
      return {
        operation_id: operationId,
        origin_account: `191-${digits(4)}****-0-${digits(2)}`,
        payment_date: paymentDate,
        result_message: { code: '00', description: 'Transferencia confirmada' },
      };
    case 'CUOTEALO':
      return {
        operation_id: operationId,
        credit_status: 'APPROVED',
        payment_date: paymentDate,
        result_message: {
          code: '00',
          description: installments ? `Crédito aprobado en ${installments} cuotas` : 'Crédito aprobado',
        },
      };
    case 'PAGOEFECTIVO':
      return {
        ...previous,
        operationNumber: operationId,
        payment_date: paymentDate,
        result_message: { code: '100', description: 'CIP pagado' },
      };
    default:
      return {
        ...previous,
        operation_id: operationId,
        payment_date: paymentDate,
        result_message: { code: '0', description: 'Pago QR confirmado' },
      };
  }
}

type Locked = {
  id: string;
  method: string;
  state: string;
  expires_at: Date | null;
  processor_response: Prisma.JsonObject | null;
  additional_fields: Prisma.JsonObject | null;
  connector_id: string | null;
  held: boolean;
};

async function withLockedPayment<T extends PayerOutcome>(
  prisma: Db,
  token: string,
  act: (tx: Prisma.TransactionClient, payment: Locked, now: Date) => Promise<T>,
): Promise<PayerOutcome> {
  // A token with a NUL failed in PostgreSQL (500): one of another shape names no payment.
  if (!isPayerToken(token)) return { kind: 'not_found' };
  return prisma.$transaction(async (tx) => {
    const [payment] = await tx.$queryRaw<Locked[]>`
      SELECT id, method, state, expires_at, processor_response, additional_fields, connector_id,
        coalesce(undo_until > now(), false) AS held
      FROM transactions WHERE payer_token = ${token} FOR UPDATE`;
    // A CARD payment's page is its 3-D Secure challenge (challenge.ts): "pay" here would mark it
    // authorized without its processor, and "abandon" would leave its card in the vault. A
    // payment a merchant's processor account carries is paid at the processor, which says so
    // (receive-notification.ts): this page cannot pay or abandon it.
    if (!payment || payment.method === 'CARD' || isAccountConnector(payment.connector_id)) return { kind: 'not_found' };
    // A merchant's cancellation is asking the processor to void it: nothing moves until it ends.
    if (payment.state !== 'PENDIENTE' || payment.held) return { kind: 'unchanged', state: payment.state };
    const now = new Date();
    if (payment.expires_at && payment.expires_at <= now) {
      await moveTransaction(tx, payment.id, 'PENDIENTE', 'EXPIRADO', { stateReason: STATE_REASONS.expired }, now);
      return { kind: 'expired' };
    }
    return act(tx, payment, now);
  });
}

export function payPayment(prisma: Db, token: string, options: { installments?: number } = {}): Promise<PayerOutcome> {
  return withLockedPayment(prisma, token, async (tx, payment, now) => {
    const installments = payment.method === 'CUOTEALO' ? (options.installments ?? 3) : null;
    await moveTransaction(
      tx,
      payment.id,
      'PENDIENTE',
      'AUTORIZADO',
      {
        stateReason: STATE_REASONS.paidByPayer,
        processorResponse: paidResponse(payment.method, payment.processor_response, now, installments),
        // Beside the processor and attempt routing noted (docs/ORCHESTRATION.md 3).
        ...(installments
          ? { additionalFields: { ...(payment.additional_fields ?? {}), installments: String(installments) } }
          : {}),
      },
      now,
    );
    return { kind: 'moved', state: 'AUTORIZADO' };
  });
}

export function abandonPayment(prisma: Db, token: string): Promise<PayerOutcome> {
  return withLockedPayment(prisma, token, async (tx, payment, now) => {
    await abandonMove(tx, payment.id, now);
    return { kind: 'moved', state: 'CANCELADO' };
  });
}
