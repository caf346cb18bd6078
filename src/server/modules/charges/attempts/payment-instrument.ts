import type { z } from 'zod';
import type { paymentMethodRequest } from '@/server/core/interface/charge-request';
import type { InstrumentFor, PaymentInstrument, StoredCredential } from '@/server/payments';
import type { HeldCard } from '@/server/modules/charges/card-vault';
import type { StoredCredentialUse } from './stored-credential';

/** The `payment_method` of `POST /charges` as its schema validated it (docs/interface.md 2.2-2.4). */
export type PaymentMethodRequest = z.output<typeof paymentMethodRequest>;

type CardDetails = Extract<PaymentMethodRequest, { method_name: 'CARD' }>['method_details'];

/**
 * The request's `payment_method` in the connectors' terms: the one place the two shapes meet. A
 * saved card's number is in the request by then (stored-credential.ts), and its use is told.
 */
export function instrumentOf(
  request: PaymentMethodRequest,
  storedCredential: StoredCredentialUse | null,
  connectorId: string,
  held: HeldCard | null,
): PaymentInstrument {
  switch (request.method_name) {
    case 'CARD': {
      const card = cardInstrumentOf(request.method_details, storedCredential, connectorId);
      // A token held before a 3-D Secure challenge is its processor's only (card-vault.ts).
      return held?.connectorId === connectorId ? { ...card, heldToken: held.token } : card;
    }
    case 'YAPE': {
      const { phone, otp, callback_url } = request.method_details;
      return {
        method: 'YAPE',
        phone: { countryCode: phone.country_code, subscriber: phone.subscriber },
        otp,
        callbackUrl: callback_url,
      };
    }
    case 'BANK_TRANSFER':
    case 'CUOTEALO':
      return {
        method: request.method_name,
        returnUrl: request.method_details.redirect_url,
        callbackUrl: request.method_details.callback_url,
      };
    case 'PAGOEFECTIVO':
      return {
        method: 'PAGOEFECTIVO',
        returnUrl: request.method_details.redirect_url,
        callbackUrl: request.method_details.callback_url,
      };
    case 'QR':
      return { method: 'QR', callbackUrl: request.method_details.callback_url };
  }
}

/** A stored credential as one connector is told it: its own token for the card, its customer. */
function forConnector(use: StoredCredentialUse, connectorId: string): StoredCredential {
  const held = use.tokens.card.find((token) => token.connectorId === connectorId);
  const processorCustomerId = held?.processorCustomerId ?? use.tokens.processorCustomers.get(connectorId);
  return {
    initiator: use.initiator,
    usage: use.usage,
    reason: use.reason,
    initialNti: use.initialNti,
    ...(held ? { processorToken: { token: held.token, processorCustomerId: held.processorCustomerId } } : {}),
    ...(processorCustomerId ? { processorCustomerId } : {}),
  };
}

/** A card's details in the connectors' terms, a charge's or a zero-amount verification's. */
export function cardInstrumentOf(
  details: CardDetails,
  storedCredential: StoredCredentialUse | null,
  connectorId: string,
): InstrumentFor<'CARD'> {
  const { pan, expiry_date, security_code, card_holder, installments, redirect_url, callback_url } = details;
  if (pan === undefined || expiry_date === undefined) throw new Error('a saved card is read from the vault before its charge');
  return {
    method: 'CARD',
    pan,
    expiry: expiry_date,
    ...(security_code !== undefined ? { securityCode: security_code } : {}),
    ...(storedCredential ? { storedCredential: forConnector(storedCredential, connectorId) } : {}),
    ...(card_holder ? { holder: { firstName: card_holder.first_name, lastName: card_holder.last_name } } : {}),
    ...(installments ? { installments: { plan: installments.plan, number: installments.number } } : {}),
    returnUrl: redirect_url,
    callbackUrl: callback_url,
  };
}
