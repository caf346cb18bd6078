import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingNotification, NotificationResult, PaymentChange } from '../connector';
import { field, text } from '../processor-http';
import type { ProcessorAccountConfig } from '../processor-account';
import type { MercadoPagoClient, MercadoPagoPayment } from './mercadopago-client';
import { mercadoPagoDeclineClass } from './mercadopago-codes';
import { findPayment } from './mercadopago-records';
import { processorRecord } from '../transaction-reference';

// Mercado Pago's webhooks (mercadopago.com.pe/developers/en/docs/your-integrations/notifications/webhooks):
// `x-signature: ts=…,v1=…` is the HMAC-SHA256 (hex) under the account's webhook secret of the
// manifest `id:[data.id of the query];request-id:[x-request-id];ts:[ts];`, a pair left out when
// its value is absent (the official SDK builds it the same way: sdk-nodejs src/utils/webhook).
// The docs leave the tolerance to the receiver: an hour (SIGNATURE_TOLERANCE_SECONDS), past which
// a captured notification cannot be replayed, and its id deduplicates a retry within it. The
// notification only says a payment changed: the payment is read before anything moves.

/**
 * How far a notification's timestamp may be from the service's clock: an hour, so that the
 * retries of a notification the service answered 503 (every 15 minutes, docs …/webhooks) still
 * pass if they keep their first timestamp; replays inside it are deduplicated and re-read.
 */
export const SIGNATURE_TOLERANCE_SECONDS = 3_600;

/** The signed manifest of a notification (exported for the tests that sign one). */
export function signatureManifest(dataId: string | null, requestId: string | null, ts: string): string {
  return `${dataId ? `id:${dataId};` : ''}${requestId ? `request-id:${requestId};` : ''}ts:${ts};`;
}

function signed(notification: IncomingNotification, secret: string): { ok: true } | { ok: false; reason: string } {
  const header = notification.headers.get('x-signature') ?? '';
  const parts = new Map(
    header.split(',').map((part) => {
      const [key, ...value] = part.trim().split('=');
      return [key ?? '', value.join('=')] as const;
    }),
  );
  const ts = parts.get('ts');
  const v1 = parts.get('v1');
  if (!ts || !/^\d{1,16}$/.test(ts) || !v1 || !/^[0-9a-f]{64}$/i.test(v1)) return { ok: false, reason: 'no x-signature' };
  // The docs call ts milliseconds and show seconds; the SDK reads seconds: both are taken.
  const seconds = Number(ts) > 1e12 ? Number(ts) / 1000 : Number(ts);
  if (Math.abs(notification.receivedAt.getTime() / 1000 - seconds) > SIGNATURE_TOLERANCE_SECONDS) {
    return { ok: false, reason: 'stale x-signature' };
  }
  const manifest = signatureManifest(notification.query.get('data.id'), notification.headers.get('x-request-id'), ts);
  const expected = createHmac('sha256', secret).update(manifest).digest();
  const given = Buffer.from(v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected)
    ? { ok: true }
    : { ok: false, reason: 'wrong x-signature' };
}

function changeOf(payment: MercadoPagoPayment): PaymentChange {
  const id = String(payment.id);
  switch (payment.status) {
    case 'approved':
      return {
        kind: 'approved',
        authorizationCode: payment.authorization_code ?? id,
        brandTransactionId: id,
        processorReference: id,
      };
    case 'rejected': {
      const code = payment.status_detail ?? 'rejected';
      return { kind: 'declined', code, declineClass: mercadoPagoDeclineClass(code) };
    }
    case 'refunded':
      return { kind: 'refunded' };
    case 'cancelled':
      return { kind: 'voided' };
    default:
      return { kind: 'none' };
  }
}

export async function mercadoPagoNotification(
  client: MercadoPagoClient,
  account: ProcessorAccountConfig,
  notification: IncomingNotification,
): Promise<NotificationResult> {
  if (!account.webhook.secret) return { outcome: 'refused', reason: 'the account has no webhook secret' };
  const verdict = signed(notification, account.webhook.secret);
  if (!verdict.ok) return { outcome: 'refused', reason: verdict.reason };
  let body: unknown;
  try {
    body = JSON.parse(notification.body) as unknown;
  } catch {
    return { outcome: 'malformed', reason: 'not JSON' };
  }
  const externalId = text(field(body, 'id')) ?? notification.headers.get('x-request-id');
  const kind = text(field(body, 'action')) ?? text(field(body, 'type')) ?? 'unknown';
  // The signed id is the query's; a body naming another payment is not what was signed.
  const resource = notification.query.get('data.id') ?? '';
  const bodyResource = text(field(field(body, 'data'), 'id'));
  if (!externalId) return { outcome: 'malformed', reason: 'not a Mercado Pago notification' };
  // A body naming another payment than the signed one: not what was signed.
  if (bodyResource !== undefined && bodyResource !== resource) return { outcome: 'refused', reason: 'unsigned payment id' };
  const accepted = { outcome: 'accepted' as const, externalId, kind, resource };
  if ((text(field(body, 'type')) ?? notification.query.get('type')) !== 'payment' || !/^\d{1,20}$/.test(resource)) {
    return { ...accepted, transactionId: null, change: { kind: 'none' } };
  }
  const found = await findPayment(client, processorRecord(resource));
  if (found.kind === 'unknown') return { outcome: 'unavailable' };
  if (found.kind === 'none') return { ...accepted, transactionId: null, change: { kind: 'none' } };
  return { ...accepted, transactionId: found.payment.external_reference ?? null, change: changeOf(found.payment) };
}
