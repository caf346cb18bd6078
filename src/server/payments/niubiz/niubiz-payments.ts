import { describeCard, isExpiryInPast, parseExpiry } from '@/server/core/domain/card';
import { DEFAULT_EXPIRY_SECONDS } from '@/server/core/domain/expiry';
import { addSeconds } from '@/server/core/domain/time';
import { instrumentFor, type AuthorizeResult, type ConnectorContext, type PaymentInstrument } from '../connector';
import { cardPayment, withoutUndefined } from '../method-details';
import { yapeWallet } from '../yape-wallet';
import type { NiubizClient } from './niubiz-client';
import {
  antifraudBody,
  antifraudToken,
  authorizationBody,
  authorizationResult,
  expiredCard,
  qrBody,
  qrResult,
  savedCardAuthorizationBody,
  yapeBody,
  yapeToken,
  type Described,
} from './niubiz-mapping';

// Card, Yape and QR payments at Niubiz (docs/processors/niubiz.md), as the calls they take; what
// each call carries and what its answer means is niubiz-mapping.ts.
// - CARD, server to server (research §4.4.1): the card goes to the antifraud API only, which
//   answers a `tokenId` ([K-obs]; [oracle] makes a card payment exactly so); the authorization
//   then charges that token, never the card. A card in the authorization body is in one source
//   only ([ts-hook], research §4.4.2): not used.
// - YAPE (research §10): the payer's phone and one-time code to the Yape API ([ts-hook], [yape-rn],
//   [flow], [odoo]), whose token is authorized as a card token is, with channel `pasarela`.
// - QR (research §9): a dynamic code from QR Manager, which the payer pays in Yape, Plin or a
//   bank's app; Niubiz calls the account's URL back (niubiz-notifications.ts).

const merchantPath = (client: NiubizClient) => encodeURIComponent(client.merchantId);

/** The authorization of a token (a card's antifraud token or a Yape token), research §4.1. */
async function authorizeToken(
  client: NiubizClient,
  context: ConnectorContext,
  token: { tokenId: string } | AuthorizeResult,
  channel: 'web' | 'pasarela',
  described: Described,
  register = false,
  owner: string | null = null,
): Promise<AuthorizeResult> {
  if (!('tokenId' in token)) return token;
  return authorize(client, context, authorizationBody(context, token.tokenId, channel, register, owner), described);
}

async function authorize(client: NiubizClient, context: ConnectorContext, body: object, described: Described) {
  const answer = await client.call('POST', `/api.authorization/v3/authorization/ecommerce/${merchantPath(client)}`, {
    body,
    signal: context.signal,
  });
  return authorizationResult(answer, described);
}

export async function authorizeCard(client: NiubizClient, instrument: PaymentInstrument, context: ConnectorContext) {
  const { pan, expiry, securityCode, installments, holder, storedCredential } = instrumentFor(instrument, 'CARD');
  const described: Described = cardPayment(describeCard(pan), installments);
  const expiryDate = parseExpiry(expiry);
  if (expiryDate === null || isExpiryInPast(expiry, context.now)) return expiredCard(described);
  // A card Niubiz keeps: charged by its token, customer present or not (niubiz-mapping.ts).
  const held = storedCredential?.processorToken;
  if (held) return authorize(client, context, savedCardAuthorizationBody(context, held), described);
  const antifraud = await client.call('POST', `/api.antifraud/v1/antifraud/ecommerce/${merchantPath(client)}`, {
    body: antifraudBody({ pan, expiry: expiryDate, securityCode, holder }, context),
    signal: context.signal,
  });
  // A customer-initiated charge of a card to save, or of a saved card Niubiz does not keep yet, registers it.
  const register = storedCredential?.initiator === 'CUSTOMER';
  const owner = storedCredential?.processorCustomerId ?? null;
  return authorizeToken(client, context, antifraudToken(antifraud, described), 'web', described, register, owner);
}

export async function authorizeYape(client: NiubizClient, instrument: PaymentInstrument, context: ConnectorContext) {
  const { phone, otp } = instrumentFor(instrument, 'YAPE');
  const described = yapeWallet(phone);
  const answer = await client.call('POST', `/api.yape/v2/yape/transaction/${merchantPath(client)}`, {
    body: yapeBody(phone, otp, context),
    signal: context.signal,
  });
  return authorizeToken(client, context, yapeToken(answer, described), 'pasarela', described);
}

export async function authorizeQr(client: NiubizClient, instrument: PaymentInstrument, context: ConnectorContext) {
  const { callbackUrl } = instrumentFor(instrument, 'QR');
  const methodDetails = withoutUndefined({ callback_url: callbackUrl });
  const expiresAt = addSeconds(context.now, context.expirySeconds ?? DEFAULT_EXPIRY_SECONDS.QR);
  const answer = await client.call('POST', '/api.qr.manager/v1/qr/ascii', {
    body: qrBody(client.merchantId, context, expiresAt),
    signal: context.signal,
  });
  return qrResult(answer, context, expiresAt, methodDetails);
}
