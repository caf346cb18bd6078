import type { StatusResult, TransactionReference } from '../connector';
import { niubizDeclineClass, NIUBIZ_APPROVAL_CODES } from './niubiz-codes';
import { centsOf, field, mapText, orderText, purchaseNumberOf, text, type NiubizClient } from './niubiz-client';

// What Niubiz made for one of our transactions: GET
// /api.authorization/v3/retrieve/purchase/{merchantId}/{purchaseNumber} (research §8: [woo-pd],
// [cs-gw]; portal "Consultas" [D-consultas]). Every flow after the authorization starts here: the
// purchaseNumber is derived from our transaction id (niubiz-client.ts), so a payment whose answer
// was lost is found, and the record gives its current STATUS, its SIGNATURE (the void's key) and
// TRANSACTION_ID (the refund's key).
//
// Unconfirmed (research §8, §17.7): the full response body, the answer when nothing is found and
// when several attempts share a number. Decided: the record is read as the authorization's
// envelope (`order`, `dataMap`, `fulfillment`) plus `order.status` ([java-q], [cs-gw] read it);
// 404 means none; any other non-200 is unknown.

export type NiubizRecord = {
  status: string;
  actionCode: string;
  authorizationCode: string;
  transactionId: string;
  signature: string;
  amount: bigint | null;
  /** `fulfillment.countable`: false for an authorization to confirm later; undefined when the record does not say. */
  countable: boolean | undefined;
  transactionDate: string | undefined;
  description: string;
};

export type Found<T> = { kind: 'found'; value: T } | { kind: 'none' } | { kind: 'unknown' };

/** A record's members from an authorization-shaped body (research §4.2, §4.3, §8). */
export function recordOf(body: unknown): NiubizRecord | null {
  const status = mapText(body, 'STATUS') ?? orderText(body, 'status');
  if (!status) return null;
  const countable = field(field(body, 'fulfillment'), 'countable');
  return {
    status,
    actionCode: mapText(body, 'ACTION_CODE') ?? orderText(body, 'actionCode') ?? '',
    authorizationCode: mapText(body, 'AUTHORIZATION_CODE') ?? orderText(body, 'authorizationCode') ?? '',
    transactionId: mapText(body, 'TRANSACTION_ID') ?? mapText(body, 'ID_UNICO') ?? orderText(body, 'transactionId') ?? '',
    signature: mapText(body, 'SIGNATURE') ?? text(field(field(body, 'fulfillment'), 'signature')) ?? '',
    amount: centsOf(field(field(body, 'order'), 'amount') ?? mapText(body, 'AMOUNT')),
    countable:
      typeof countable === 'boolean' ? countable : countable === 'true' ? true : countable === 'false' ? false : undefined,
    transactionDate: mapText(body, 'TRANSACTION_DATE') ?? orderText(body, 'transactionDate'),
    description: mapText(body, 'ACTION_DESCRIPTION') ?? status,
  };
}

/** `yyMMddHHmmss` in Lima time (UTC−5, no daylight saving; research §1.3, observed [K-obs]) as an instant. */
export function limaInstant(value: string | undefined): Date | null {
  const match = /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(value ?? '');
  if (!match) return null;
  const [, yy, mm, dd, hh, mi, ss] = match.map(Number) as [number, number, number, number, number, number, number];
  return new Date(Date.UTC(2000 + yy, mm - 1, dd, hh + 5, mi, ss));
}

/** A record two days or more away from the attempt is another payment's that shares its number (a collision). */
const SAME_PAYMENT_MS = 2 * 86_400_000;

function isOurs(record: NiubizRecord, reference: TransactionReference): boolean {
  if (reference.amount > 0n && record.amount !== null && record.amount !== reference.amount) return false;
  const at = limaInstant(record.transactionDate);
  return !(at && reference.createdAt && Math.abs(at.getTime() - reference.createdAt.getTime()) > SAME_PAYMENT_MS);
}

export async function findPayment(client: NiubizClient, reference: TransactionReference): Promise<Found<NiubizRecord>> {
  const purchaseNumber = purchaseNumberOf(reference.transactionId);
  const answer = await client.call(
    'GET',
    `/api.authorization/v3/retrieve/purchase/${encodeURIComponent(client.merchantId)}/${purchaseNumber}`,
  );
  if (answer.kind !== 'answered') return { kind: 'unknown' };
  if (answer.status === 404) return { kind: 'none' };
  if (answer.status !== 200) return { kind: 'unknown' };
  const record = recordOf(answer.body);
  if (!record) return { kind: 'unknown' };
  return isOurs(record, reference) ? { kind: 'found', value: record } : { kind: 'none' };
}

/**
 * A record as a status. STATUS strings (research §8: [PW-PDF] Annex c, [K-obs], [odoo]
 * STATUS_MAPPING): `Authorized` (captured with it when `countable`, else waiting for its
 * confirmation), `Confirmed` (captured; partial confirmation is not documented, so all of it),
 * `Voided` (released: nothing captured), `Not Authorized`/`Reject`/`Denegado` declined with its code.
 */
export function recordStatus(record: NiubizRecord): StatusResult {
  const approved = {
    outcome: 'approved' as const,
    authorizationCode: record.authorizationCode || record.transactionId,
    brandTransactionId: record.transactionId,
    processorReference: record.transactionId,
  };
  switch (record.status.toLowerCase()) {
    case 'authorized':
      return record.countable === false
        ? { ...approved, capturedAmount: null }
        : record.countable === true && record.amount !== null
          ? { ...approved, capturedAmount: record.amount }
          : approved;
    case 'confirmed':
    case 'depositado':
      return record.amount !== null ? { ...approved, capturedAmount: record.amount } : approved;
    case 'voided':
    case 'anulado':
      return { ...approved, capturedAmount: null };
    default: {
      const code = record.actionCode;
      if (code && !NIUBIZ_APPROVAL_CODES.has(code)) return { outcome: 'declined', code, declineClass: niubizDeclineClass(code) };
      return { outcome: 'unknown' };
    }
  }
}
