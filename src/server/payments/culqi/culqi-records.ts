import type { StatusResult, TransactionReference } from '../connector';
import { field, text, type ProcessorAnswer } from '../processor-http';
import { culqiDeclineClass } from './culqi-codes';
import {
  isObject,
  refundOf,
  transactionOf,
  type CulqiCharge,
  type CulqiClient,
  type CulqiOrder,
  type CulqiRefund,
} from './culqi-client';

// Finding what Culqi made for one of our transactions or refunds: by the id its answer gave, or,
// when the answer was lost, among the account's charges or orders of that amount made around the
// attempt, or its refunds made since the refund was taken, by the id their metadata carries
// (Culqi has no lookup by the merchant's reference: the official libraries' list filters are
// amount and creation dates, culqi-python culqi/utils/validation/charge_validation.py and
// refund_validation.py; docs/processors/culqi.md).

export type Found<T> = { kind: 'found'; value: T } | { kind: 'none' } | { kind: 'unknown' };

/** How long before the attempt (or the refund) a lost charge, order or refund is searched from. */
const SEARCH_MARGIN_MS = 5 * 60_000;
/** Pages of 100 read before the search gives up as unknown (a merchant with more same-amount payments in the window). */
const SEARCH_PAGES = 10;

function one<T>(answer: ProcessorAnswer, object: string): Found<T> {
  if (answer.kind !== 'answered' || answer.status >= 500 || answer.status === 429) return { kind: 'unknown' };
  if (answer.status === 404) return { kind: 'none' };
  return answer.status === 200 && isObject<T>(answer.body, object) ? { kind: 'found', value: answer.body } : { kind: 'unknown' };
}

/**
 * Culqi's lower creation-date filter, in seconds, a search margin before `from`, and no upper one.
 * Culqi does not say whether its filters take seconds or milliseconds (its objects carry
 * milliseconds): read as milliseconds, seconds are an earlier instant, so the search only grows
 * wider, never missing the object (an upper bound read so would exclude everything).
 */
function since(from: Date) {
  return { creation_date_from: String(Math.floor((from.getTime() - SEARCH_MARGIN_MS) / 1000)) };
}

async function search<T>(
  client: CulqiClient,
  path: '/charges' | '/orders' | '/refunds',
  object: string,
  filters: Record<string, string>,
  isIt: (each: T) => boolean,
): Promise<Found<T>> {
  const query = { ...filters, limit: '100' };
  let after: string | undefined;
  for (let page = 0; page < SEARCH_PAGES; page += 1) {
    const answer = await client.get(path, { ...query, ...(after ? { after } : {}) });
    if (answer.kind !== 'answered' || answer.status !== 200) return { kind: 'unknown' };
    const data = field(answer.body, 'data');
    if (!Array.isArray(data)) return { kind: 'unknown' };
    const match = (data as T[]).find((each) => isObject<T>(each, object) && isIt(each));
    if (match) return { kind: 'found', value: match };
    // Culqi's pages: `paging.cursors.after` and `remaining_items` (apidocs "Paginación").
    const paging = field(answer.body, 'paging');
    const remaining = Number(field(paging, 'remaining_items') ?? 0);
    after = text(field(field(paging, 'cursors'), 'after'));
    if (!(remaining > 0) || !after) return { kind: 'none' };
  }
  return { kind: 'unknown' };
}

export async function findCharge(client: CulqiClient, reference: TransactionReference): Promise<Found<CulqiCharge>> {
  if (reference.processorReference?.startsWith('chr_')) {
    return one<CulqiCharge>(await client.get(`/charges/${encodeURIComponent(reference.processorReference)}`), 'charge');
  }
  return search<CulqiCharge>(
    client,
    '/charges',
    'charge',
    sinceAttempt(reference),
    (each) => transactionOf(each) === reference.transactionId,
  );
}

export async function findOrder(client: CulqiClient, reference: TransactionReference): Promise<Found<CulqiOrder>> {
  if (reference.processorReference?.startsWith('ord_')) {
    return one<CulqiOrder>(await client.get(`/orders/${encodeURIComponent(reference.processorReference)}`), 'order');
  }
  return search<CulqiOrder>(
    client,
    '/orders',
    'order',
    sinceAttempt(reference),
    (each) => (transactionOf(each) ?? each.order_number) === reference.transactionId,
  );
}

/** A refund made for `refundId` (its metadata names it) since it was taken at `registeredAt`. */
export async function findRefund(client: CulqiClient, refundId: string, registeredAt: Date): Promise<Found<CulqiRefund>> {
  return search<CulqiRefund>(client, '/refunds', 'refund', since(registeredAt), (each) => refundOf(each) === refundId);
}

function sinceAttempt(reference: TransactionReference) {
  return { amount: reference.amount.toString(), ...since(reference.createdAt ?? new Date()) };
}

/** A charge as a status: approved, declined with its code, or undecided. */
export function chargeStatus(charge: CulqiCharge): StatusResult {
  if (charge.outcome?.type === 'venta_exitosa') {
    return {
      outcome: 'approved',
      authorizationCode: charge.authorization_code ?? charge.id,
      brandTransactionId: charge.reference_code ?? charge.id,
      processorReference: charge.id,
      // Culqi captures the whole charge: nothing while it is held, all of it once captured.
      ...(charge.capture === false
        ? { capturedAmount: null }
        : charge.capture === true
          ? { capturedAmount: BigInt(charge.amount) }
          : {}),
    };
  }
  const code = charge.outcome?.decline_code;
  return code ? { outcome: 'declined', code, declineClass: culqiDeclineClass(code) } : { outcome: 'unknown' };
}

/**
 * An order as a status: one the payer paid is approved (its payment code standing for the
 * authorization); one deleted or expired was never paid; one still waiting cannot be told yet.
 */
export function orderStatus(order: CulqiOrder): StatusResult {
  switch (order.state) {
    case 'paid':
      return {
        outcome: 'approved',
        authorizationCode: order.payment_code ?? order.id,
        brandTransactionId: order.id,
        processorReference: order.id,
      };
    case 'expired':
    case 'deleted':
      return { outcome: 'declined', code: `order_${order.state}`, declineClass: 'hard' };
    default:
      return { outcome: 'unknown' };
  }
}
