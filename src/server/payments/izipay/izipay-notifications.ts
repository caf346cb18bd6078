import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingNotification, NotificationResult, PaymentChange } from '../connector';
import { field, text } from '../processor-http';
import type { ProcessorAccountConfig } from '../processor-account';
import type { IzipayClient } from './izipay-client';
import { izipayDeclineClass } from './izipay-codes';
import { approvalCodes, findOrder, refundedOf, refusalCode, type IzipayOrder } from './izipay-records';

// Izipay's IPN (research §7.1): a form POST of `kr-hash`, `kr-hash-algorithm` (`sha256_hmac`),
// `kr-hash-key` (`password` for the IPN), `kr-answer-type` (`V4/Payment`) and `kr-answer` (the
// payment as JSON). `kr-hash` is the lower-case hex HMAC-SHA256 of `kr-answer` keyed with the
// account's REST password ([MCW-ipn]; the official SDK's checkHash [php-ex]; verified against
// Lyra's published sample in §7.1). A browser return (`kr-hash-key: sha256_hmac`) is keyed with
// the HMAC key, which the service does not hold: it is refused. The hash is checked (in constant
// time) before anything is read; even then the body only names an order, which is read from
// Izipay (Order/Get) before anything moves. The IPN has no id of its own: its `kr-hash` (an HMAC
// of the whole answer, `serverDate` included) identifies it, so a replay carries the same one.

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

function hashOf(answer: string, key: string): Buffer {
  return createHmac('sha256', key).update(answer, 'utf8').digest();
}

/** Whether `kr-hash` is the HMAC of `kr-answer` under the password (also with `\/` unescaped, as the SDK reads it). */
export function verifyKrHash(answer: string, hash: string, password: string): boolean {
  if (!HEX_SHA256.test(hash) || password === '') return false;
  const given = Buffer.from(hash, 'hex');
  return [answer, answer.replaceAll('\\/', '/')].some((candidate) => timingSafeEqual(given, hashOf(candidate, password)));
}

function changeOf(order: IzipayOrder): PaymentChange {
  const { payment } = order;
  switch (payment.detailedStatus) {
    case 'AUTHORISED':
    case 'AUTHORISED_TO_VALIDATE':
    case 'ACCEPTED':
    case 'CAPTURED':
      // A payment refunded whole is the refund's news; a part leaves it approved.
      if (payment.detailedStatus === 'CAPTURED' && refundedOf(payment) >= payment.amount) return { kind: 'refunded' };
      return { kind: 'approved', ...approvalCodes(payment), processorReference: payment.uuid };
    case 'REFUSED': {
      const code = refusalCode(payment);
      return { kind: 'declined', code, declineClass: izipayDeclineClass(code) };
    }
    case 'CANCELLED':
      return { kind: 'voided' };
    default:
      return { kind: 'none' };
  }
}

export async function izipayNotification(
  client: IzipayClient,
  account: ProcessorAccountConfig,
  notification: IncomingNotification,
): Promise<NotificationResult> {
  const form = new URLSearchParams(notification.body);
  const hash = form.get('kr-hash') ?? '';
  const answer = form.get('kr-answer');
  if (answer === null || !HEX_SHA256.test(hash)) return { outcome: 'refused', reason: 'no kr-hash' };
  if (form.get('kr-hash-algorithm') !== 'sha256_hmac') return { outcome: 'refused', reason: 'unsupported kr-hash-algorithm' };
  // Only the IPN is keyed with the password; a browser return's key is not the service's.
  if (form.get('kr-hash-key') !== 'password') return { outcome: 'refused', reason: 'not an IPN (kr-hash-key)' };
  if (!verifyKrHash(answer, hash, account.secretKey)) return { outcome: 'refused', reason: 'wrong kr-hash' };
  let payment: unknown;
  try {
    payment = JSON.parse(answer) as unknown;
  } catch {
    return { outcome: 'malformed', reason: 'kr-answer is not JSON' };
  }
  const kind = form.get('kr-answer-type') ?? 'V4/Payment';
  const orderId = text(field(field(payment, 'orderDetails'), 'orderId'));
  const transactions = field(payment, 'transactions');
  const first: unknown = Array.isArray(transactions) ? transactions[0] : undefined;
  const resource = text(field(first, 'uuid')) ?? orderId ?? '';
  if (field(payment, 'shopId') !== account.publicKey) return { outcome: 'malformed', reason: 'another shop' };
  const accepted = { outcome: 'accepted' as const, externalId: hash.toLowerCase(), kind, resource };
  if (!orderId) return { ...accepted, transactionId: null, change: { kind: 'none' } };
  const found = await findOrder(client, orderId);
  if (found.kind === 'unknown') return { outcome: 'unavailable' };
  if (found.kind === 'none') return { ...accepted, transactionId: null, change: { kind: 'none' } };
  return { ...accepted, transactionId: orderId, change: changeOf(found.value) };
}
