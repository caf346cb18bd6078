import { timingSafeEqual } from 'node:crypto';
import type { IncomingNotification, NotificationResult, PaymentChange } from '../connector';
import { field, text } from '../processor-http';
import type { ProcessorAccountConfig } from '../processor-account';
import { processorRecord } from '../transaction-reference';
import { transactionOf, type CulqiCharge, type CulqiClient, type CulqiOrder } from './culqi-client';
import { chargeStatus, findCharge, findOrder, type Found } from './culqi-records';

// Culqi's webhooks (docs.culqi.com/es/documentacion/pagos-online/webhooks): a POST of an event
// `{object: "event", id: "evt_…", type, creation_date, data}` whose `data` is the object as a JSON
// string. Culqi signs nothing; the only proof its documentation gives is HTTP Basic
// authentication, set on the webhook in CulqiPanel (culqi-docs guides/pagos/tarjetas-y-pagoefectivo/
// control-de-estados.md; the official WooCommerce plugin checks it the same way). So a
// notification without the account's credentials is refused, and even a verified one only says
// which object changed: the object is read from Culqi before anything moves.

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Whether the request carries the Basic credentials of the account's webhook. */
function verified(notification: IncomingNotification, account: ProcessorAccountConfig): boolean {
  const { username, secret } = account.webhook;
  if (!username || !secret) return false;
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(notification.headers.get('authorization') ?? '');
  if (!match) return false;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 && sameSecret(decoded.slice(0, colon), username) && sameSecret(decoded.slice(colon + 1), secret);
}

type Event = { id: string; type: string; data: Record<string, unknown> };

function parseEvent(body: string): Event | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body) as unknown;
  } catch {
    return null;
  }
  const id = text(field(parsed, 'id'));
  const type = text(field(parsed, 'type'));
  if (field(parsed, 'object') !== 'event' || !id || !type) return null;
  let data = field(parsed, 'data');
  if (typeof data === 'string') {
    try {
      data = JSON.parse(data) as unknown;
    } catch {
      return null;
    }
  }
  return data !== null && typeof data === 'object' ? { id, type, data: data as Record<string, unknown> } : null;
}

function orderChange(order: CulqiOrder, at: Date): PaymentChange {
  switch (order.state) {
    case 'paid':
      return { kind: 'paid', operationId: order.id, paidAt: at };
    case 'expired':
      return { kind: 'expired' };
    case 'deleted':
      return { kind: 'voided' };
    default:
      return { kind: 'none' };
  }
}

function chargeChange(charge: CulqiCharge, refundEvent: boolean): PaymentChange {
  if (refundEvent) return (charge.amount_refunded ?? 0) >= charge.amount ? { kind: 'refunded' } : { kind: 'none' };
  const status = chargeStatus(charge);
  if (status.outcome === 'approved') {
    const { authorizationCode, brandTransactionId } = status;
    return { kind: 'approved', authorizationCode, brandTransactionId, processorReference: charge.id };
  }
  if (status.outcome === 'declined') return { kind: 'declined', code: status.code, declineClass: status.declineClass };
  return { kind: 'none' };
}

export async function culqiNotification(
  client: CulqiClient,
  account: ProcessorAccountConfig,
  notification: IncomingNotification,
): Promise<NotificationResult> {
  if (!verified(notification, account)) return { outcome: 'refused', reason: 'missing or wrong webhook credentials' };
  const event = parseEvent(notification.body);
  if (!event) return { outcome: 'malformed', reason: 'not a Culqi event' };
  const accepted = { outcome: 'accepted' as const, externalId: event.id, kind: event.type };
  const settle = <T extends { metadata?: Record<string, unknown>; order_number?: string }>(
    found: Found<T>,
    resource: string,
    change: (value: T) => PaymentChange,
  ): NotificationResult => {
    if (found.kind === 'unknown') return { outcome: 'unavailable' };
    if (found.kind === 'none') return { ...accepted, resource, transactionId: null, change: { kind: 'none' } };
    return {
      ...accepted,
      resource,
      transactionId: transactionOf(found.value) ?? found.value.order_number ?? null,
      change: change(found.value),
    };
  };
  if (event.type.startsWith('order.')) {
    const id = text(event.data.id) ?? '';
    if (!id.startsWith('ord_')) return { ...accepted, resource: id, transactionId: null, change: { kind: 'none' } };
    return settle(await findOrder(client, processorRecord(id)), id, (order) => orderChange(order, notification.receivedAt));
  }
  if (event.type.startsWith('charge.') || event.type.startsWith('refund.')) {
    // Charge and refund events carry Culqi's internal shape (`chargeId` on a refund's).
    const id = text(event.type.startsWith('refund.') ? (event.data.chargeId ?? event.data.charge_id) : event.data.id) ?? '';
    if (!id.startsWith('chr_')) return { ...accepted, resource: id, transactionId: null, change: { kind: 'none' } };
    return settle(await findCharge(client, processorRecord(id)), id, (charge) =>
      chargeChange(charge, event.type.startsWith('refund.')),
    );
  }
  return { ...accepted, resource: text(event.data.id) ?? '', transactionId: null, change: { kind: 'none' } };
}
