import { alphanumeric, postNotification, type SimReply } from '../simulator-http';
import {
  booleanField,
  currencyField,
  digits,
  emailField,
  integerField,
  metadataField,
  newId,
  objectField,
  parameterError,
  resourceError,
  stringField,
  type Body,
  type CulqiAccount,
  type CulqiContext,
  type CulqiDelivery,
  type CulqiEvent,
  type CulqiOrder,
  type CulqiOrderState,
  type Owned,
} from './culqi-objects';

// Orders (PagoEfectivo CIP, Cuotéalo, wallets; research/culqi.md 6) and the `order.status.changed`
// events Culqi posts to the merchant's webhook when an order is paid, expires or is deleted
// (research 7). The payer's side of Cuotéalo is a one-button page on the simulator itself.

/** research 6.1: the draft schema's minimum (S/ 6.00); the maximum is the charges' one. */
export const ORDER_AMOUNT = { min: 600, max: 999_900 };
const ORDER_TYPES = ['cip', 'cuotealo', 'billetera'];
const DEFAULT_EXPIRY_SECONDS = 24 * 3600;
const MAX_ATTEMPTS = 3;

export type EventOutcome = { event_id: string; deliveries: { status: number; attempt: number }[] };

const seconds = () => Math.floor(Date.now() / 1000);

export function createOrder(ctx: CulqiContext, account: CulqiAccount, body: Body): SimReply {
  const amount = integerField(body, 'amount', ORDER_AMOUNT);
  const currency = currencyField(body);
  const description = stringField(body, 'description', { min: 5, max: 80 });
  const orderNumber = stringField(body, 'order_number', { min: 1, max: 36 });
  const client = objectField(body, 'client_details');
  if (!client) parameterError('client_details', 'Es obligatorio.');
  for (const name of ['first_name', 'last_name', 'phone_number']) {
    stringField(client, name, { min: 1, max: 50 }, `client_details.${name}`);
  }
  emailField(client, 'email', 'client_details.email');
  const expiration =
    body.expiration_date === undefined || body.expiration_date === null
      ? seconds() + DEFAULT_EXPIRY_SECONDS
      : integerField(body, 'expiration_date', { min: 0, max: 1e12 - 1 });
  if (expiration <= seconds()) parameterError('expiration_date', 'Debe ser una fecha futura (segundos Unix).');
  const confirm = booleanField(body, 'confirm', true);
  const metadata = metadataField(body);
  for (const { owner, value } of ctx.state.orders.values()) {
    if (owner === account.secretKey && value.order_number === orderNumber) {
      parameterError('order_number', 'Ya existe una orden con este número de pedido.');
    }
  }
  const order: CulqiOrder = {
    object: 'order',
    id: newId('ord', account),
    amount,
    payment_code: null,
    currency_code: currency,
    description,
    order_number: orderNumber,
    state: 'created',
    total_fee: null,
    net_amount: null,
    fee_details: null,
    creation_date: seconds(),
    expiration_date: expiration,
    updated_at: null,
    paid_at: null,
    available_on: null,
    metadata,
  };
  if (confirm) moveToPending(order);
  ctx.state.orders.set(order.id, { owner: account.secretKey, value: order });
  return { status: 201, body: order };
}

function moveToPending(order: CulqiOrder): void {
  order.state = 'pending';
  order.payment_code ??= digits(9);
}

function ownOrder(ctx: CulqiContext, account: CulqiAccount, id: string): Owned<CulqiOrder> {
  const record = ctx.state.orders.get(id);
  if (!record || record.owner !== account.secretKey) resourceError(`No se encontró la orden con ID ${id}.`);
  return record;
}

export function confirmOrder(ctx: CulqiContext, account: CulqiAccount, id: string): SimReply {
  const order = ownOrder(ctx, account, id).value;
  if (order.state !== 'created')
    resourceError(`La orden ${id} está en estado '${order.state}': solo se confirma una orden creada.`);
  moveToPending(order);
  return { status: 201, body: order };
}

/** "Confirm by type": a pending order may be confirmed again to add Cuotéalo (Checkout does so). */
export function confirmOrderByType(ctx: CulqiContext, account: CulqiAccount, body: Body): SimReply {
  const id = stringField(body, 'order_id', { min: 1, max: 64 });
  const types = body.order_types;
  if (!Array.isArray(types) || types.length === 0 || !types.every((type) => ORDER_TYPES.includes(String(type)))) {
    parameterError('order_types', `Debe ser una lista con valores de: ${ORDER_TYPES.join(', ')}.`);
  }
  const order = ownOrder(ctx, account, id).value;
  if (order.state !== 'created' && order.state !== 'pending') {
    resourceError(`La orden ${id} está en estado '${order.state}' y no puede confirmarse.`);
  }
  moveToPending(order);
  if (types.includes('cuotealo')) order.cuotealo = `${ctx.origin}/cuotealo/${order.id}`;
  return { status: 201, body: order };
}

export const getOrder = (ctx: CulqiContext, account: CulqiAccount, id: string): SimReply => ({
  status: 200,
  body: ownOrder(ctx, account, id).value,
});

export function deleteOrder(ctx: CulqiContext, account: CulqiAccount, id: string): SimReply {
  const record = ownOrder(ctx, account, id);
  const { state } = record.value;
  if (state !== 'created' && state !== 'pending')
    resourceError(`La orden ${id} está en estado '${state}' y no puede eliminarse.`);
  // Culqi does not wait for the merchant's webhook before answering.
  void changeOrderState(ctx, record, 'deleted');
  return { status: 200, body: { id, deleted: true, merchant_message: `Se eliminó la orden con ID ${id} exitosamente.` } };
}

/** Moves the order and posts the event; resolves once the first delivery attempt has an answer. */
export async function changeOrderState(
  ctx: CulqiContext,
  record: Owned<CulqiOrder>,
  state: Extract<CulqiOrderState, 'paid' | 'expired' | 'deleted'>,
): Promise<EventOutcome> {
  record.value.state = state;
  // The event's environment is the order's (ord_test_… → evt_test_…).
  const environment = record.value.id.startsWith('ord_live_') ? 'live' : 'test';
  const event: CulqiEvent = {
    object: 'event',
    id: `evt_${environment}_${alphanumeric(16)}`,
    type: 'order.status.changed',
    creation_date: Date.now(),
    data: JSON.stringify(record.value),
  };
  ctx.state.events.set(event.id, { owner: record.owner, value: event });
  return deliver(ctx, record.owner, event);
}

/** Posts the event to the account's webhook; a non-2xx answer or none is tried again, 3 attempts in all. */
async function deliver(ctx: CulqiContext, owner: string, event: CulqiEvent): Promise<EventOutcome> {
  const webhook = ctx.state.accounts.get(owner)?.webhook;
  if (!webhook) return { event_id: event.id, deliveries: [] };
  const headers: Record<string, string> =
    webhook.username !== undefined
      ? { authorization: `Basic ${Buffer.from(`${webhook.username}:${webhook.password ?? ''}`).toString('base64')}` }
      : {};
  const body = JSON.stringify(event);
  const state = ctx.state;
  const attempt = async (number: number): Promise<CulqiDelivery> => {
    const status = await postNotification(webhook.url, body, headers);
    const delivery: CulqiDelivery = {
      event_id: event.id,
      type: event.type,
      url: webhook.url,
      status,
      attempt: number,
      at: Date.now(),
    };
    // After a reset or close the attempt belongs to a forgotten state: not recorded, not retried.
    if (ctx.state !== state) return delivery;
    state.deliveries.push(delivery);
    if ((status < 200 || status > 299) && number < MAX_ATTEMPTS) {
      const timer = setTimeout(() => {
        state.timers.delete(timer);
        void attempt(number + 1);
      }, ctx.retryDelayMs);
      timer.unref();
      state.timers.add(timer);
    }
    return delivery;
  };
  const first = await attempt(1);
  return { event_id: event.id, deliveries: [{ status: first.status, attempt: first.attempt }] };
}

export function getEvent(ctx: CulqiContext, account: CulqiAccount, id: string): SimReply {
  const record = ctx.state.events.get(id);
  if (!record || record.owner !== account.secretKey) resourceError(`No se encontró el evento con ID ${id}.`);
  return { status: 200, body: record.value };
}

/** The same event (same id and body) posted again, as a replayed notification. */
export async function resendEvent(ctx: CulqiContext, id: string): Promise<EventOutcome | null> {
  const record = ctx.state.events.get(id);
  return record ? deliver(ctx, record.owner, record.value) : null;
}

/** Orders past their expiration_date expire, as Culqi's would, with their event. */
export function expireDueOrders(ctx: CulqiContext): void {
  const now = seconds();
  for (const record of ctx.state.orders.values()) {
    const { state, expiration_date } = record.value;
    if ((state === 'created' || state === 'pending') && expiration_date <= now) void changeOrderState(ctx, record, 'expired');
  }
}

// ---- the payer's Cuotéalo page -------------------------------------------------------------------

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);

function page(status: number, title: string, content: string): SimReply {
  return {
    status,
    html: `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>${escape(title)}</title></head><body><h1>${escape(title)}</h1>${content}</body></html>`,
  };
}

export async function cuotealoPage(ctx: CulqiContext, method: string, id: string): Promise<SimReply> {
  const record = ctx.state.orders.get(id);
  if (!record || record.value.cuotealo === undefined)
    return page(404, 'Orden no encontrada', '<p>Esta orden no existe o no admite Cuotéalo.</p>');
  const order = record.value;
  if (order.state === 'paid') return page(200, 'Pago aprobado', `<p>Orden ${escape(order.order_number)} pagada.</p>`);
  if (order.state !== 'pending')
    return page(409, 'Orden no disponible', `<p>La orden está en estado ${escape(order.state)}.</p>`);
  if (method === 'POST') {
    await changeOrderState(ctx, record, 'paid');
    return page(200, 'Pago aprobado', `<p>Orden ${escape(order.order_number)} pagada.</p>`);
  }
  const amount = `${order.currency_code === 'PEN' ? 'S/' : 'US$'} ${(order.amount / 100).toFixed(2)}`;
  return page(
    200,
    'Cuotéalo BCP',
    `<p>${escape(order.description)}</p><p>Pedido ${escape(order.order_number)}: <strong>${amount}</strong></p>` +
      `<form method="post" action="/cuotealo/${encodeURIComponent(order.id)}"><button type="submit">Pagar en cuotas</button></form>`,
  );
}
