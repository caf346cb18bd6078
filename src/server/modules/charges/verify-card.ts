import { randomUUID } from 'node:crypto';
import type { Db } from '@/server/platform/db/client';
import { AppError } from '@/server/core/domain/errors';
import { successMeta } from '@/server/core/domain/envelope';
import { defaultRoutes, evaluateRoutes, type PaymentFacts } from '@/server/core/orchestration';
import { describeCard } from '@/server/core/domain/card';
import { authenticate, type ThreeDsResult } from '@/server/core/three-ds/directory';
import { consentOf, type VerifyCardRequest } from '@/server/core/interface/customer';
import type { ActingMerchant } from '@/server/modules/access/acting-merchant';
import { connectorById, merchantConnectorFacts } from '@/server/modules/processors/connectors';
import { routingConfigOf } from '@/server/modules/routing/routing-config';
import { customerOf } from '@/server/modules/customers/customers';
import { saveCard } from '@/server/modules/customers/save-card';
import { toSavedCardObject } from '@/server/modules/customers/card-view';
import { customerTokens, keepCardToken } from '@/server/modules/customers/card-tokens';
import { cardInstrumentOf } from './attempts/payment-instrument';
import { firstUse } from './attempts/stored-credential';
import { verifyWithin } from './attempts/ask-processor';
import { forProcessor } from './attempts/three-ds';

// A card saved without a payment (docs/DECISIONS.md "Card on file", after ../shared
// CARD-ON-FILE.md 3): a zero-amount account verification, a CIT authenticated as the charge that
// saves a card is, at the first processor that verifies cards, in the merchant's routing order;
// the card and its network transaction id come from its answer. No money moves, no operation.

/**
 * POST /customers/{merchant_code}/{customer_id}/cards. 404 `30` for a customer not the
 * merchant's; 422 `42` when the card asks for a 3-D Secure challenge (saved with a payment
 * instead, where its payer can pass it), fails authentication, is declined, or no processor
 * verifies cards.
 */
export async function verifyAndSaveCard(db: Db, merchant: ActingMerchant, request: VerifyCardRequest) {
  const customer = await customerOf(db, merchant.id, request.customer_id);
  const config = await routingConfigOf(db, merchant.id, 'CARD');
  const authentication = authenticated(config.threeDs.mode !== 'NEVER', request);
  const use = firstUse(request.reason, true, await customerTokens(db, customer.id, null));
  const card = {
    pan: request.pan,
    expiry_date: request.expiry_date,
    security_code: request.security_code,
    ...(request.card_holder ? { card_holder: request.card_holder } : {}),
  };
  for (const connectorId of await verifiers(db, merchant, config, request)) {
    const connector = await connectorById(db, connectorId);
    if (!connector) continue;
    const result = await verifyWithin(connector, cardInstrumentOf(card, use, connectorId), {
      now: new Date(),
      transactionId: randomUUID(),
      amount: 0n,
      currency: request.currency,
      order: {
        merchantOperationNumber: `verify-${customer.id.slice(0, 8)}`,
        merchantName: merchant.name,
        description: `${merchant.name} card verification`.slice(0, 80),
        payer: { email: customer.email, firstName: customer.firstName, lastName: customer.lastName, phone: null },
      },
      payerPageUrl: '',
      capture: 'automatic',
      ...(authentication ? { authentication: forProcessor(authentication) } : {}),
    });
    if (result.outcome === 'unavailable' || result.outcome === 'not_supported') continue;
    if (result.outcome === 'declined') {
      const { code, description } = result.resultMessage;
      throw refused('pan', `the issuer declined the card (${code} ${description}): it is not saved`);
    }
    const { cardToken } = result;
    const { row } = await db.$transaction(async (tx) => {
      const saved = await saveCard(tx, {
        merchant,
        customerId: customer.id,
        pan: request.pan,
        expiryDate: request.expiry_date,
        currency: request.currency,
        reason: request.reason,
        consent: consentOf(request.reason, request.consent),
        savedByTransactionId: null,
        nti: result.networkTransactionId ?? null,
      });
      if (cardToken) await keepCardToken(tx, saved.row.id, { connectorId, ...cardToken });
      return saved;
    });
    return { success: true, card: toSavedCardObject(row), meta: successMeta() };
  }
  throw refused('pan', 'no processor can verify this card without a payment now: save it with a payment (save_card)');
}

/** The verification's 3-D Secure result, where the merchant authenticates at all; a challenge or a failure refuses it. */
function authenticated(required: boolean, request: VerifyCardRequest): ThreeDsResult | null {
  if (!required) return null;
  const authentication = authenticate({ pan: request.pan, amount: 0n, currency: request.currency });
  if (authentication.kind === 'challenge') {
    throw refused(
      'pan',
      'this card asks for a 3-D Secure challenge: save it with a payment (save_card), where its payer can pass it',
    );
  }
  if (authentication.kind === 'failed') throw refused('pan', "the card's 3-D Secure authentication failed: it is not saved");
  return authentication.result;
}

/**
 * The connectors that verify cards, in the order routing would try the card: the merchant's
 * rule's routes that hold for it (its brand, BIN, type, country), then the platform's.
 */
async function verifiers(
  db: Db,
  merchant: ActingMerchant,
  config: Awaited<ReturnType<typeof routingConfigOf>>,
  request: VerifyCardRequest,
): Promise<string[]> {
  const connectors = (await merchantConnectorFacts(db, config.accounts)).filter(
    (connector) => connector.capabilities.savedCards.zeroAmountVerify,
  );
  const card = describeCard(request.pan);
  const payment: PaymentFacts = {
    method: 'CARD',
    amount: 0n,
    currency: request.currency,
    brand: card.brand,
    bin: card.bin,
    cardType: card.card_type,
    cardCountry: card.card_country,
    instalments: 1,
    captureLater: false,
    stableKey: `${merchant.code}:verify:${request.customer_id}`,
  };
  // An open breaker is asked anyway: a verification has no payment to lose, and the next verifier follows.
  const breakerAllows = () => true;
  const ruled = config.rule
    ? evaluateRoutes({ routes: config.rule.routes, platformDefault: false, payment, connectors, breakerAllows })
    : [];
  const platform = evaluateRoutes({ routes: defaultRoutes('CARD'), platformDefault: true, payment, connectors, breakerAllows });
  return [...new Set([...ruled, ...platform].map((candidate) => candidate.connector))];
}

function refused(field: string, message: string): AppError {
  return new AppError('METHOD_RULE', message, { errors: [{ field, code: 'not_verified', message }] });
}
