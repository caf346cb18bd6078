import type { IncomingNotification, NotificationResult, PaymentChange, StatusResult } from '../connector';
import { field, text, type NiubizClient } from './niubiz-client';
import type { Found } from './niubiz-records';

// QR Manager's payment callback (research §9, §11). Niubiz "avisa del pago por callback a la URL
// que registre el comercio" and the callback is NOT signed ([qr-b]: "el origen es la única
// verificación disponible"; [qr-pb]: "no firma sus webhooks con HMAC"; an `NBZ-Signature` header
// appears only in the AI-generated [indico], contradicted). Cards send no notification (§11).
// So the body is never trusted: it only names a QR (`tagId`), which is then asked of Niubiz with
// the account's own token (GET /api.qr.manager/v1/qr/queryTransaction/{id}, [qr-b]); only what
// Niubiz answers is reported. A body naming nothing Niubiz knows for this account is refused.
//
// Unconfirmed (research §9, §17.9): the callback's fields, the query's path parameter and its
// answer. Decided: the callback names the QR as `tagId` (the name [qr-pb]'s handler reads; the
// generate answer's own name for it), the query takes that id, and its answer is read as
// `{codeResponse, tagId, idc, status, transactionId, paidAt}` — the simulator's shape, to verify
// in Niubiz's sandbox (docs/processors/niubiz.md).

export type QrRecord = {
  tagId: string;
  /** PENDING, PAID, EXPIRED (our reading; see above). */
  status: string;
  /** What we sent as `idc`: our transaction id. */
  idc: string | null;
  transactionId: string | null;
  authorizationCode: string | null;
  paidAt: Date | null;
};

export async function findQr(client: NiubizClient, tagId: string): Promise<Found<QrRecord>> {
  const answer = await client.call('GET', `/api.qr.manager/v1/qr/queryTransaction/${encodeURIComponent(tagId)}`);
  if (answer.kind !== 'answered' || answer.status >= 500 || answer.status === 401) return { kind: 'unknown' };
  if (answer.status === 404) return { kind: 'none' };
  const code = text(field(answer.body, 'codeResponse') ?? field(answer.body, 'codResponse'));
  const status = text(field(answer.body, 'status'));
  if (answer.status !== 200) return { kind: 'unknown' };
  // `codeResponse` 1 is QR Manager's error ([qr-a]): for a query, a QR it does not have.
  if (code === '1') return { kind: 'none' };
  if (code !== '0' || !status || text(field(answer.body, 'tagId')) !== tagId) return { kind: 'unknown' };
  const paidAt = text(field(answer.body, 'paidAt'));
  return {
    kind: 'found',
    value: {
      tagId,
      status: status.toUpperCase(),
      idc: text(field(answer.body, 'idc')) ?? null,
      transactionId: text(field(answer.body, 'transactionId')) ?? null,
      authorizationCode: text(field(answer.body, 'authorizationCode')) ?? null,
      paidAt: paidAt && !Number.isNaN(Date.parse(paidAt)) ? new Date(paidAt) : null,
    },
  };
}

/** A QR as a status: paid is approved (its transaction standing for the authorization), expired declined, else undecided. */
export function qrStatus(record: QrRecord): StatusResult {
  switch (record.status) {
    case 'PAID':
      return {
        outcome: 'approved',
        authorizationCode: record.authorizationCode ?? record.transactionId ?? record.tagId,
        brandTransactionId: record.transactionId ?? record.tagId,
        processorReference: record.tagId,
      };
    case 'EXPIRED':
      return { outcome: 'declined', code: 'QR_EXPIRED', declineClass: 'hard' };
    default:
      return { outcome: 'unknown' };
  }
}

function changeOf(record: QrRecord, receivedAt: Date): PaymentChange {
  switch (record.status) {
    case 'PAID':
      return { kind: 'paid', operationId: record.transactionId ?? record.tagId, paidAt: record.paidAt ?? receivedAt };
    case 'EXPIRED':
      return { kind: 'expired' };
    default:
      return { kind: 'none' };
  }
}

function tagIdOf(body: string): string | null {
  try {
    const id = text(field(JSON.parse(body) as unknown, 'tagId'));
    return id && /^[A-Za-z0-9_-]{1,64}$/.test(id) ? id : null;
  } catch {
    return null;
  }
}

export async function niubizNotification(client: NiubizClient, notification: IncomingNotification): Promise<NotificationResult> {
  const tagId = tagIdOf(notification.body);
  // Nothing to ask Niubiz about: an unsigned body cannot be verified any other way.
  if (!tagId) return { outcome: 'refused', reason: 'not a Niubiz QR callback: no tagId to verify with Niubiz' };
  const found = await findQr(client, tagId);
  if (found.kind === 'unknown') return { outcome: 'unavailable' };
  if (found.kind === 'none') return { outcome: 'refused', reason: 'Niubiz does not know this QR for this account' };
  const record = found.value;
  return {
    outcome: 'accepted',
    // Niubiz gives a callback no id: the QR and the state Niubiz reports make one, the same on a replay.
    externalId: `${record.tagId}:${record.status}`,
    kind: 'qr.payment',
    resource: record.tagId,
    transactionId: record.idc,
    change: changeOf(record, notification.receivedAt),
  };
}
