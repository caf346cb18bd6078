import type { Db } from '@/server/platform/db/client';
import type { ConnectorContext, PaymentConnector, PaymentInstrument } from '@/server/payments';
import { holdsCardToken, keepCardToken } from '@/server/modules/customers/card-tokens';
import { provisionWithin } from './ask-processor';
import type { StoredCredentialUse } from './stored-credential';

// Provision on use (../shared CARD-ON-FILE.md 5): a processor whose tokens are made apart from
// the authorization (Culqi's and Mercado Pago's cards) is asked for one once a customer-initiated
// charge of the card is approved and recorded, while the security code the token needs is still
// in the request. The approval is the charge's answer whatever happens here: a token that is not
// made in the connector's timeout is simply not held, and the card's next customer-initiated
// charge with its code asks again.

/** Asks `connector` for its token of the card a charge just saved or charged, and keeps it. */
export async function provisionCardToken(
  db: Db,
  connector: PaymentConnector,
  use: StoredCredentialUse | null,
  cardId: string,
  instrument: PaymentInstrument,
  context: Omit<ConnectorContext, 'signal'>,
): Promise<void> {
  if (instrument.method !== 'CARD' || !use || use.initiator !== 'CUSTOMER') return;
  if (!connector.capabilities.savedCards.tokenize) return;
  if (use.tokens.card.some((held) => held.connectorId === connector.id)) return;
  // A card saved again (the same PAN for the same customer) keeps the token the processor has:
  // another would leave the first one at the processor, charged by nothing and never deleted.
  if (await holdsCardToken(db, cardId, connector.id)) return;
  const answer = await provisionWithin(connector, instrument, context);
  if (answer.outcome !== 'provisioned') return;
  await keepCardToken(db, cardId, { connectorId: connector.id, ...answer.token });
}
