import { NO_CAPTURE } from '@/server/core/domain/capabilities';
import { notSupported, type PaymentConnector, type TransactionReference } from '../connector';
import type { AccountCheck, ProcessorAccountConfig, ProcessorEndpoints } from '../processor-account';
import { errorOf, type MercadoPagoClient, mercadoPagoClient } from './mercadopago-client';
import { mercadoPagoNotification } from './mercadopago-notifications';
import { authorizeCard, authorizeYape } from './mercadopago-payments';
import { findPayment, paymentStatus } from './mercadopago-records';
import { field, text } from '../processor-http';
import { absence } from '../transaction-reference';

// A merchant's Mercado Pago account as a connector (docs/processors/mercadopago.md): cards and
// Yape (Checkout API, Peru). An approved card payment cannot be cancelled, only refunded
// (mercadopago.com.pe/developers/en/guides/manage-account/account/cancellations-and-refunds): a
// reversal before settlement and a refund after it are both a whole refund, each under an
// idempotency key of its own, so asking again never returns the money twice.

export const MERCADOPAGO_METHODS = ['CARD', 'YAPE'] as const;
// Peru's accounts are in soles (mercadopago.com.pe: site MPE, currency PEN); its API takes no
// 3-D Secure result from another directory server.
export const MERCADOPAGO_CURRENCIES = ['604'] as const;
// Capture later and refunds in parts are not wired to Mercado Pago yet: a partial refund of one
// of its payments is refused (422), never sent as a whole one.
export const MERCADOPAGO_CAPABILITIES = {
  ...NO_CAPTURE,
  instalments: true,
  threeDsResult: false,
  reversal: true,
  refunds: true,
  partialRefund: false,
} as const;

type Refunded = { kind: 'refunded' | 'in_process'; code: string } | { kind: 'refused'; reason: string } | { kind: 'unavailable' };

async function refundWhole(
  client: MercadoPagoClient,
  reference: TransactionReference,
  idempotencyKey: string,
): Promise<Refunded> {
  const found = await findPayment(client, reference);
  if (found.kind === 'unknown') return { kind: 'unavailable' };
  if (found.kind === 'none') return { kind: 'refused', reason: 'Mercado Pago no registra este pago' };
  const id = String(found.payment.id);
  if (found.payment.status === 'refunded') return { kind: 'refunded', code: id };
  if (found.payment.status !== 'approved') return { kind: 'refused', reason: 'Mercado Pago no aprobó este pago' };
  // A refund made before (its answer lost, or still in process) is not made again: it is read.
  const earlier = await client.get(`/v1/payments/${encodeURIComponent(id)}/refunds`);
  if (earlier.kind !== 'answered' || earlier.status >= 500) return { kind: 'unavailable' };
  const made = Array.isArray(earlier.body) ? (earlier.body as unknown[]) : [];
  const pending = made.find((each) => text(field(each, 'status')) === 'in_process');
  if (pending) return { kind: 'in_process', code: text(field(pending, 'id')) ?? id };
  const answer = await client.post(`/v1/payments/${encodeURIComponent(id)}/refunds`, {}, idempotencyKey);
  // 409 or 423: a request under this key is under way or was made: it is read on the next ask.
  if (answer.kind !== 'answered' || answer.status >= 500 || [409, 423, 429].includes(answer.status))
    return { kind: 'unavailable' };
  if (answer.status < 300) {
    const status = text(field(answer.body, 'status'));
    const code = text(field(answer.body, 'id')) ?? id;
    if (status === 'approved') return { kind: 'refunded', code };
    if (status === 'in_process' || status === 'authorized') return { kind: 'in_process', code };
    return { kind: 'refused', reason: `Mercado Pago rechazó la devolución (${status ?? 'sin estado'})` };
  }
  return { kind: 'refused', reason: errorOf(answer.body, answer.status).description };
}

export function mercadoPagoConnector(account: ProcessorAccountConfig, endpoints: ProcessorEndpoints): PaymentConnector {
  const client = mercadoPagoClient(account, endpoints);
  const carries = (method: string) => (MERCADOPAGO_METHODS as readonly string[]).includes(method);
  return {
    id: account.connectorId,
    name: `Mercado Pago · ${account.name}`,
    methods: account.methods.filter(carries),
    currencies: MERCADOPAGO_CURRENCIES,
    capabilities: MERCADOPAGO_CAPABILITIES,
    timeoutMs: endpoints.timeoutMs,
    async authorize(instrument, context) {
      if (instrument.method === 'CARD') return authorizeCard(client, account, instrument, context);
      if (instrument.method === 'YAPE') return authorizeYape(client, account, instrument, context);
      throw new Error(`The Mercado Pago connector cannot authorize a ${instrument.method} request`);
    },
    async reverse(transaction) {
      if (!carries(transaction.method)) return notSupported('reverse');
      const refunded = await refundWhole(client, transaction, `${transaction.transactionId}:reversal`);
      if (refunded.kind === 'refunded' || refunded.kind === 'in_process') return { outcome: 'reversed', code: refunded.code };
      return refunded.kind === 'refused' ? { outcome: 'refused', reason: refunded.reason } : { outcome: 'unavailable' };
    },
    async refund(request) {
      if (!carries(request.method)) return notSupported('refund');
      const refunded = await refundWhole(client, request, `${request.refundId}:refund`);
      if (refunded.kind === 'refunded') return { outcome: 'resolved' };
      if (refunded.kind === 'refused') return { outcome: 'rejected', reason: refunded.reason };
      return { outcome: 'in_process' };
    },
    async capture() {
      return notSupported('capture');
    },
    async status(transaction) {
      if (!carries(transaction.method)) return notSupported('status');
      const found = await findPayment(client, transaction);
      if (found.kind === 'found') return paymentStatus(found.payment);
      return found.kind === 'none' ? absence(transaction) : { outcome: 'unknown' };
    },
    notification: (notification) => mercadoPagoNotification(client, account, notification),
  };
}

/** Whether Mercado Pago takes the account's access token: its payment methods (GET /v1/payment_methods). */
export async function checkMercadoPagoAccount(
  account: ProcessorAccountConfig,
  endpoints: ProcessorEndpoints,
): Promise<AccountCheck> {
  const answer = await mercadoPagoClient(account, endpoints).get('/v1/payment_methods');
  if (answer.kind !== 'answered') return { ok: false, message: 'Mercado Pago no respondió' };
  if (answer.status === 200) return { ok: true, message: 'Mercado Pago aceptó el access token' };
  return { ok: false, message: errorOf(answer.body, answer.status).description };
}
