import { cardPath, cardResponse } from '@/server/core/interface/customer';
import type { ProcedureMeta } from '../../openapi/procedure-meta';
import { facilitatedHeaders } from '../../openapi/headers';

export const removeCardInput = cardPath;
export const removeCardOutput = cardResponse;

/** The REST operation (docs/DECISIONS.md "Card on file"): path, operationId, the type of `success`, headers and error statuses. */
export const removeCardMeta = {
  successType: 'boolean',
  openapi: {
    method: 'DELETE',
    path: '/customers/{merchant_code}/{customer_id}/cards/{card_id}',
    operationId: 'removeCard',
    tags: ['customers'],
    summary: 'Remove a saved card',
    description:
      'The card becomes REMOVED and its number is destroyed (its key is deleted); brand, BIN, last 4 and dates stay. Charges naming it are 404 from then on. Twice answers the same.',
    requestHeaders: facilitatedHeaders,
    errorResponses: [400, 401, 403, 404, 429],
  },
} satisfies ProcedureMeta;
