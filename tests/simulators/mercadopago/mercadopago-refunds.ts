import type { SimReply } from '../simulator-http';
import { badRequest, paymentNotFound, refundNotFound } from './mercadopago-errors';
import { findPayment, renderPayment, type PaymentChange } from './mercadopago-payments';
import { isObject, type Account, type MercadoPagoRefund, type SimulatorState } from './mercadopago-state';
import { mpDate, roundMoney } from './mercadopago-test-data';

// POST/GET /v1/payments/{id}/refunds and GET …/refunds/{refund_id} (research §7.1).

const DAY_MS = 86_400_000;
/** The refunds guide's window for mpe: 90 days after approval. */
const REFUND_WINDOW_DAYS = 90;
/** "up to 20 partial refunds" per payment. */
const MAX_REFUNDS = 20;

function notRefundable(): SimReply {
  return badRequest(2063, 'The action requested is not valid for the current payment state');
}

export function createRefund(state: SimulatorState, account: Account, rawId: string, body: unknown): PaymentChange {
  const record = findPayment(state, account, rawId);
  if (!record) return { reply: paymentNotFound() };
  if (!isObject(body)) return { reply: badRequest(1, 'Params Error') };
  const request = body;
  const payment = record.payment;
  // Only money that was taken can be given back: authorized reserves are cancelled instead.
  if (payment.status !== 'approved') return { reply: notRefundable() };
  const now = Date.now();
  if (record.approvedAt !== null && now - record.approvedAt > REFUND_WINDOW_DAYS * DAY_MS) {
    return { reply: badRequest(2024, 'Payment too old to be refunded') };
  }
  if (payment.refunds.length >= MAX_REFUNDS) return { reply: badRequest(2022, 'Max number of refunds exceeded') };

  const left = roundMoney(payment.transaction_amount - payment.transaction_amount_refunded);
  let amount = left;
  if (request.amount !== undefined && request.amount !== null) {
    if (typeof request.amount !== 'number' || !Number.isFinite(request.amount)) {
      return { reply: badRequest(4041, 'amount attribute must be numeric') };
    }
    if (request.amount <= 0) return { reply: badRequest(4040, 'amount attribute must be positive') };
    amount = roundMoney(request.amount);
    if (amount > left) {
      return {
        reply: {
          status: 400,
          body: {
            message: `Invalid refund amount: ${amount} is more than the ${left} left to refund`,
            error: 'bad_request',
            status: 400,
            cause: [{ code: 2063, description: 'The action requested is not valid for the current payment state', data: null }],
          },
        },
      };
    }
  }

  const refund: MercadoPagoRefund = {
    id: state.nextRefundId(),
    payment_id: payment.id,
    amount,
    metadata: isObject(request.metadata) ? request.metadata : {},
    source: { id: String(account.userId), name: `TESTUSER${account.userId}`, type: 'collector' },
    date_created: mpDate(now),
    unique_sequence_number: null,
    refund_mode: 'standard',
    adjustment_amount: 0,
    status: 'approved',
    reason: null,
  };
  payment.refunds.push(refund);
  payment.transaction_amount_refunded = roundMoney(payment.transaction_amount_refunded + amount);
  const full = payment.transaction_amount_refunded >= payment.transaction_amount;
  payment.status = full ? 'refunded' : 'approved';
  payment.status_detail = full ? 'refunded' : 'partially_refunded';
  payment.date_last_updated = mpDate(now);
  return { reply: { status: 201, body: structuredClone(refund) }, changed: record };
}

export function listRefunds(state: SimulatorState, account: Account, rawId: string): SimReply {
  const record = findPayment(state, account, rawId);
  return record ? { status: 200, body: renderPayment(record).refunds } : paymentNotFound();
}

export function getRefund(state: SimulatorState, account: Account, rawId: string, refundId: string): SimReply {
  const record = findPayment(state, account, rawId);
  if (!record) return paymentNotFound();
  const refund = record.payment.refunds.find((candidate) => String(candidate.id) === refundId);
  return refund ? { status: 200, body: structuredClone(refund) } : refundNotFound();
}
