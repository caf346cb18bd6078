import { cardResponse, verifyCardRequest } from '@/server/core/interface/customer';
import type { ProcedureMeta } from '../../openapi/procedure-meta';
import { facilitatedHeaders } from '../../openapi/headers';

export const verifyCardInput = verifyCardRequest;
export const verifyCardOutput = cardResponse;

/** The REST operation (docs/DECISIONS.md "Card on file"): path, operationId, the type of `success`, headers and error statuses. */
export const verifyCardMeta = {
  successType: 'boolean',
  openapi: {
    method: 'POST',
    path: '/customers/{merchant_code}/{customer_id}/cards',
    operationId: 'saveCard',
    tags: ['customers'],
    summary: 'Save a card without a payment',
    description:
      'A zero-amount verification of the card at a processor that verifies cards (no money moves), authenticated with 3-D Secure unless the merchant never authenticates; the saved card and its network transaction id come from it. The same PAN saved again for the customer is the same card, with the new expiry and consent. A card that asks for a 3-D Secure challenge is saved with a payment instead (save_card on POST /charges).',
    requestHeaders: facilitatedHeaders,
    errorResponses: [400, 401, 403, 404, 422, 429],
  },
} satisfies ProcedureMeta;
