import { describeCard, isExpiryInPast, parseExpiry } from '@/server/core/domain/card';
import { cardPayment } from '../method-details';
import { instrumentFor, type PaymentInstrument, type AuthorizeResult, type ConnectorContext } from '../connector';
import { decline, technicalFailure } from '../outcomes';
import type { ProcessorAccountConfig } from '../processor-account';
import { yapeWallet } from '../yape-wallet';
import type { MercadoPagoClient } from './mercadopago-client';
import { holderName, savedCardTokenBody } from './mercadopago-cards';
import { cardTokenBody, paymentBody, paymentMethodOf, paymentResult, tokenOf, type Described } from './mercadopago-mapping';

// A card or Yape payment at Mercado Pago, as the calls it takes (what each carries and means:
// mercadopago-mapping.ts): the card's token, or the Yape approval code's, then the payment.

export async function authorizeCard(
  client: MercadoPagoClient,
  account: ProcessorAccountConfig,
  instrument: PaymentInstrument,
  context: ConnectorContext,
): Promise<AuthorizeResult> {
  const cardInstrument = instrumentFor(instrument, 'CARD');
  const { pan, expiry, securityCode, installments, storedCredential } = cardInstrument;
  const card = describeCard(pan);
  const described: Described = cardPayment(card, installments);
  const expiryDate = parseExpiry(expiry);
  if (expiryDate === null || isExpiryInPast(expiry, context.now)) {
    return decline({ code: 'cc_rejected_bad_filled_date', description: 'Tarjeta vencida' }, 'hard', described);
  }
  const method = paymentMethodOf(card);
  if (method === null) {
    // A brand Mercado Pago Peru does not carry: another processor may.
    return technicalFailure('processor_error', card, described.methodDetails, {
      code: 'brand_not_supported',
      description: `Mercado Pago no procesa tarjetas ${card.brand}`,
    });
  }
  const holder = holderName(cardInstrument, context);
  // A card Mercado Pago holds is tokenized again from its id and the code captured again (mercadopago-cards.ts).
  const held = storedCredential?.processorToken;
  const tokenBody =
    held && securityCode ? savedCardTokenBody(held.token, securityCode) : cardTokenBody(pan, expiryDate, securityCode, holder);
  const token = tokenOf(
    await client.post('/v1/card_tokens', tokenBody, `${context.transactionId}:card-token`, context.signal),
    described,
  );
  if (typeof token !== 'string') return token;
  const base = paymentBody(account, context, {
    token,
    installments: Number(installments?.number ?? '1'),
    payment_method_id: method,
    three_d_secure_mode: 'not_supported',
  });
  // The saved card's payment names its customer as the payer (…/receive-payments-with-saved-cards).
  const body = held?.processorCustomerId
    ? { ...base, payer: { ...base.payer, type: 'customer', id: held.processorCustomerId } }
    : base;
  return paymentResult(await client.post('/v1/payments', body, context.transactionId, context.signal), described);
}

export async function authorizeYape(
  client: MercadoPagoClient,
  account: ProcessorAccountConfig,
  instrument: PaymentInstrument,
  context: ConnectorContext,
): Promise<AuthorizeResult> {
  const { phone, otp } = instrumentFor(instrument, 'YAPE');
  const described = yapeWallet(phone);
  const token = tokenOf(
    await client.yapeToken({ phoneNumber: phone.subscriber, otp, requestId: context.transactionId }, context.signal),
    described,
  );
  if (typeof token !== 'string') return token;
  const body = paymentBody(account, context, { token, installments: 1, payment_method_id: 'yape' });
  return paymentResult(await client.post('/v1/payments', body, context.transactionId, context.signal), described);
}
