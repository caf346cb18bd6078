import type { StatusResult, TransactionReference } from '../connector';
import { field } from '../processor-http';
import { paymentOf, type MercadoPagoClient, type MercadoPagoPayment } from './mercadopago-client';
import { mercadoPagoDeclineClass } from './mercadopago-codes';

// Finding the payment Mercado Pago made for one of our transactions: by the id its answer gave
// (GET /v1/payments/{id}), or, when the answer was lost, by our transaction id, which every
// payment carries as its external reference (GET /v1/payments/search?external_reference=…,
// mercadopago.com.pe/developers/es/reference/payments/_payments_search/get; it searches the last
// twelve months, from three months back unless told: the service asks within minutes).

export type FoundPayment = { kind: 'found'; payment: MercadoPagoPayment } | { kind: 'none' } | { kind: 'unknown' };

export async function findPayment(client: MercadoPagoClient, reference: TransactionReference): Promise<FoundPayment> {
  if (reference.processorReference) {
    const answer = await client.get(`/v1/payments/${encodeURIComponent(reference.processorReference)}`);
    if (answer.kind !== 'answered' || answer.status >= 500 || answer.status === 429) return { kind: 'unknown' };
    if (answer.status === 404) return { kind: 'none' };
    const payment = paymentOf(answer.body);
    return answer.status < 300 && payment ? { kind: 'found', payment } : { kind: 'unknown' };
  }
  // From a day before the attempt: the search's default window is the last three months only.
  const since = new Date((reference.createdAt ?? new Date()).getTime() - 86_400_000);
  const answer = await client.get('/v1/payments/search', {
    external_reference: reference.transactionId,
    sort: 'date_created',
    criteria: 'desc',
    range: 'date_created',
    begin_date: since.toISOString(),
    end_date: 'NOW',
  });
  if (answer.kind !== 'answered' || answer.status !== 200) return { kind: 'unknown' };
  const results = field(answer.body, 'results');
  if (!Array.isArray(results)) return { kind: 'unknown' };
  const payment = (results as unknown[])
    .map(paymentOf)
    .find((each) => each !== null && each.external_reference === reference.transactionId);
  return payment ? { kind: 'found', payment } : { kind: 'none' };
}

/** A payment as a status: approved (refunded and charged back were approved first), rejected with its reason, or undecided. */
export function paymentStatus(payment: MercadoPagoPayment): StatusResult {
  const id = String(payment.id);
  switch (payment.status) {
    case 'approved':
    case 'authorized':
    case 'refunded':
    case 'charged_back':
    case 'in_mediation':
      return {
        outcome: 'approved',
        authorizationCode: payment.authorization_code ?? id,
        brandTransactionId: id,
        processorReference: id,
        // A capture later: nothing while reserved; after it, the amount captured (its transaction_amount).
        ...(payment.captured === false
          ? { capturedAmount: null }
          : payment.status === 'approved' && typeof payment.transaction_amount === 'number'
            ? { capturedAmount: BigInt(Math.round(payment.transaction_amount * 100)) }
            : {}),
      };
    case 'rejected':
    case 'cancelled': {
      const code = payment.status_detail ?? payment.status;
      return { outcome: 'declined', code, declineClass: mercadoPagoDeclineClass(code) };
    }
    default:
      return { outcome: 'unknown' };
  }
}
