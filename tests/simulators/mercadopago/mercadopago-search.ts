import type { SimReply } from '../simulator-http';
import { badRequest } from './mercadopago-errors';
import { renderPayment } from './mercadopago-payments';
import type { Account, MercadoPagoPayment, SimulatorState } from './mercadopago-state';

// GET /v1/payments/search (research §4.4): the documented parameters, equality filters on the
// payment's own fields, `{paging, results}`.

const SORTS = ['date_approved', 'date_created', 'date_last_updated', 'id', 'money_release_date'] as const;
type SortField = (typeof SORTS)[number];
const RANGES = ['date_created', 'date_last_updated', 'date_approved', 'money_release_date'] as const;
type RangeField = (typeof RANGES)[number];

/** Filters a caller may pass besides the documented ones (the SDK forwards any key). */
const FILTERS = [
  'id',
  'external_reference',
  'status',
  'status_detail',
  'payment_method_id',
  'payment_type_id',
  'operation_type',
  'currency_id',
] as const;

const MAX_LIMIT = 1000;

/** `NOW`, `NOW-XDAYS`, `NOW-XMONTHS` or an ISO 8601 date, in epoch milliseconds; null when none of them. */
export function parseSearchDate(value: string, now = Date.now()): number | null {
  const relative = /^NOW(?:-(\d+)(DAYS|MONTHS))?$/i.exec(value.trim());
  if (relative) {
    const date = new Date(now);
    const count = Number(relative[1] ?? 0);
    if (relative[2]?.toUpperCase() === 'DAYS') date.setUTCDate(date.getUTCDate() - count);
    else date.setUTCMonth(date.getUTCMonth() - count);
    return date.getTime();
  }
  if (!/^\d{4}-\d{2}-\d{2}/.test(value)) return null;
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? null : parsed;
}

function dateOf(payment: MercadoPagoPayment, field: RangeField): number | null {
  const value = payment[field];
  return value === null ? null : Date.parse(value);
}

function sortValue(payment: MercadoPagoPayment, field: SortField): number | null {
  return field === 'id' ? payment.id : dateOf(payment, field);
}

export function searchPayments(state: SimulatorState, account: Account, query: URLSearchParams): SimReply {
  const sort = (query.get('sort') ?? 'date_created') as SortField;
  if (!SORTS.includes(sort)) return badRequest(1, `Params Error: sort must be one of ${SORTS.join(', ')}`);
  const criteria = query.get('criteria') ?? 'asc';
  if (criteria !== 'asc' && criteria !== 'desc') return badRequest(1, 'Params Error: criteria must be asc or desc');
  const range = (query.get('range') ?? 'date_created') as RangeField;
  if (!RANGES.includes(range)) return badRequest(1, `Params Error: range must be one of ${RANGES.join(', ')}`);
  const begin = parseSearchDate(query.get('begin_date') ?? 'NOW-3MONTHS');
  const end = parseSearchDate(query.get('end_date') ?? 'NOW');
  if (begin === null || end === null)
    return badRequest(1, 'Params Error: begin_date and end_date must be NOW-XDAYS, NOW-XMONTHS or ISO 8601');
  const limit = Number(query.get('limit') ?? 30);
  const offset = Number(query.get('offset') ?? 0);
  if (!Number.isInteger(limit) || limit < 0 || !Number.isInteger(offset) || offset < 0) return badRequest(1, 'Params Error');
  if (limit > MAX_LIMIT) return badRequest(1000, 'Number of rows exceeded the limits');

  const matches = [...state.payments.values()]
    .filter((record) => record.owner === account.accessToken)
    .map((record) => renderPayment(record))
    .filter((payment) => {
      const at = dateOf(payment, range);
      if (at === null || at < begin || at > end) return false;
      return FILTERS.every((field) => {
        const wanted = query.get(field);
        return wanted === null || String(payment[field]) === wanted;
      });
    })
    .sort((left, right) => {
      const a = sortValue(left, sort);
      const b = sortValue(right, sort);
      // Payments without the sorted date (not yet approved…) come last either way.
      if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
      const order = a - b || left.id - right.id;
      return criteria === 'asc' ? order : -order;
    });
  return {
    status: 200,
    body: { paging: { total: matches.length, limit, offset }, results: matches.slice(offset, offset + limit) },
  };
}
