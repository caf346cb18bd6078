import type { StatusResult, TransactionReference } from '../connector';
import { absence } from '../transaction-reference';
import { transactionsOf, type IzipayClient, type IzipayTransaction } from './izipay-client';
import { izipayDeclineClass } from './izipay-codes';

// Finding what Izipay made for one of our transactions. Every payment is created with our
// transaction id as its `orderId`, so `Order/Get {orderId}` finds it even when the create answer
// was lost (research §6.1: "the lookup-after-timeout path"; [izi-php] OrderGet.php sends the
// orderId alone, [mag] adds `operationType: DEBIT`). The connector sends the orderId alone and
// reads both the payment (DEBIT) and its refunds (CREDIT, whose `parentTransactionUuid` names the
// payment): that Order/Get lists the refunds of the order too is **unconfirmed** (§6.1 shows DEBIT
// only); without them a refund asked again after a lost answer would not be found (izipay.md).

export type Found<T> = { kind: 'found'; value: T } | { kind: 'none' } | { kind: 'unknown' };

/** A payment and the refunds made of it, as Order/Get lists them. */
export type IzipayOrder = { payment: IzipayTransaction; credits: IzipayTransaction[] };

/** Statuses of an authorization waiting to be validated (captured later): §3.1 [LY-validate], [mag]. */
export const TO_VALIDATE = ['AUTHORISED_TO_VALIDATE', 'WAITING_AUTHORISATION_TO_VALIDATE'];
/** Statuses a transaction can still be cancelled or updated from: §3.1 [LY-update], §4.1 [LY-cancel]. */
export const CANCELLABLE = [...TO_VALIDATE, 'WAITING_AUTHORISATION', 'AUTHORISED'];
/** An approved payment, captured or to be (the plugin's success group, §6.1 [mag]). */
const APPROVED = ['AUTHORISED', 'AUTHORISED_TO_VALIDATE', 'CAPTURED', 'ACCEPTED', 'PARTIALLY_AUTHORISED'];

/** The payment of one of our transactions (by its orderId) and its refunds. */
export async function findOrder(client: IzipayClient, transactionId: string, signal?: AbortSignal): Promise<Found<IzipayOrder>> {
  const answer = await client.call('Order/Get', { orderId: transactionId }, signal);
  if (answer.kind === 'refused' || answer.kind === 'lost') return { kind: 'unknown' };
  // PSP_010 "Transaction not found" (§6.1 [LY-psp]); that Order/Get answers it for an unknown
  // order is **unconfirmed**: an order answered without transactions means the same.
  if (answer.kind === 'error') return answer.error.errorCode === 'PSP_010' ? { kind: 'none' } : { kind: 'unknown' };
  const transactions = transactionsOf(answer.answer);
  const debits = transactions.filter((each) => each.operationType !== 'CREDIT');
  if (debits.length === 0) return { kind: 'none' };
  // One attempt per orderId; should there be more (a payer's retry on Izipay's own pages), the
  // approved one speaks for the order, else the newest.
  const newestFirst = [...debits].sort((a, b) => (b.creationDate ?? '').localeCompare(a.creationDate ?? ''));
  const payment = newestFirst.find((each) => APPROVED.includes(each.detailedStatus)) ?? newestFirst[0]!;
  const credits = transactions.filter(
    (each) => each.operationType === 'CREDIT' && each.transactionDetails?.parentTransactionUuid === payment.uuid,
  );
  return { kind: 'found', value: { payment, credits } };
}

/** The payment (a DEBIT) of our transaction, answered `none` only after the absence grace. */
export function approvedOrAbsent(found: Found<IzipayOrder>, reference: TransactionReference): StatusResult | null {
  if (found.kind === 'found') return null;
  return found.kind === 'none' ? absence(reference) : { outcome: 'unknown' };
}

/** Whether the payment was made to be captured later (`manualValidation`, §3.1; [php-ex] IPN sample). */
export function isManual(payment: IzipayTransaction): boolean {
  return payment.transactionDetails?.cardDetails?.manualValidation === 'YES';
}

/** What has been refunded of a payment, in cents (`captureResponse.refundAmount`, §5.1 [mag]). */
export function refundedOf(payment: IzipayTransaction): number {
  return payment.transactionDetails?.cardDetails?.captureResponse?.refundAmount ?? 0;
}

/** The code a refusal reports: the acquirer's code of an ACQ_001, else Izipay's error code (§8.1, §8.2). */
export function refusalCode(payment: IzipayTransaction): string {
  if (payment.errorCode === 'ACQ_001' && payment.detailedErrorCode) return payment.detailedErrorCode;
  return payment.errorCode ?? payment.detailedStatus;
}

export function approvalCodes(payment: IzipayTransaction): { authorizationCode: string; brandTransactionId: string } {
  return {
    authorizationCode: payment.transactionDetails?.cardDetails?.authorizationResponse?.authorizationNumber ?? payment.uuid,
    brandTransactionId: payment.uuid,
  };
}

/** A payment as a status: approved (with what was captured, for one to capture later), refused, or undecided. */
export function paymentStatus(payment: IzipayTransaction): StatusResult {
  if (APPROVED.includes(payment.detailedStatus)) {
    return {
      outcome: 'approved',
      ...approvalCodes(payment),
      processorReference: payment.uuid,
      // Captured later: nothing until validated; validated (AUTHORISED, remitted at Izipay's
      // batch: CAPTURED) it is its amount, lowered by Transaction/Update for a part (§3.1).
      ...(isManual(payment)
        ? { capturedAmount: TO_VALIDATE.includes(payment.detailedStatus) ? null : BigInt(payment.amount) }
        : {}),
    };
  }
  if (payment.detailedStatus === 'REFUSED' || payment.status === 'UNPAID') {
    // A cancelled authorization (our reversal, §4.1) or one never completed are no payment either.
    const code = payment.detailedStatus === 'REFUSED' ? refusalCode(payment) : payment.detailedStatus;
    return { outcome: 'declined', code, declineClass: payment.detailedStatus === 'REFUSED' ? izipayDeclineClass(code) : 'hard' };
  }
  // RUNNING, WAITING_AUTHORISATION, UNDER_VERIFICATION …: not decided yet.
  return { outcome: 'unknown' };
}
