import { cardMethodDetails, describeCard, detectBrand, type CardDescription } from '@/server/core/domain/card';
import type { ChargeRequest } from '@/server/core/interface/charge-request';

// What the request itself says of the payment before any processor answers: the card (routing
// conditions and the row's display fields) and the method_details an attempt shows until its
// processor answers (the registered event, an attempt left to the status sync).

/** The card a CARD request names, or null (another method, or a BIN no brand claims). */
export function requestCard(body: ChargeRequest): CardDescription | null {
  if (body.payment_method.method_name !== 'CARD') return null;
  const { pan } = body.payment_method.method_details;
  return pan === undefined || detectBrand(pan) === null ? null : describeCard(pan);
}

/** docs/interface.md 2.7, from the request alone (no processor's wallet card). */
export function requestMethodDetails(body: ChargeRequest, card: CardDescription | null): Record<string, unknown> {
  const method = body.payment_method;
  if (method.method_name === 'CARD') {
    const installments = method.method_details.installments;
    return {
      ...(card ? cardMethodDetails(card) : {}),
      installments: { plan: installments?.plan ?? 'NONE', installment_number: installments?.number ?? '1' },
    };
  }
  if (method.method_name === 'YAPE') {
    const { phone } = method.method_details;
    return { phone: { country_code: phone.country_code, subscriber: phone.subscriber } };
  }
  return {};
}
