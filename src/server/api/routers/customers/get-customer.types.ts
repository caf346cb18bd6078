import { customerPath, customerWithCardsResponse } from '@/server/core/interface/customer';
import type { ProcedureMeta } from '../../openapi/procedure-meta';
import { facilitatedHeaders } from '../../openapi/headers';

export const getCustomerInput = customerPath;
export const getCustomerOutput = customerWithCardsResponse;

/** The REST operation (docs/DECISIONS.md "Card on file"): path, operationId, the type of `success`, headers and error statuses. */
export const getCustomerMeta = {
  successType: 'boolean',
  openapi: {
    method: 'GET',
    path: '/customers/{merchant_code}/{customer_id}',
    operationId: 'getCustomer',
    tags: ['customers'],
    summary: 'A customer and its saved cards',
    description: 'ACTIVE cards first. Another merchant’s customer is 404, as an unknown one.',
    requestHeaders: facilitatedHeaders,
    errorResponses: [400, 401, 403, 404, 429],
  },
} satisfies ProcedureMeta;
