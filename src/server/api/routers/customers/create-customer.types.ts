import { customerRequest, customerResponse } from '@/server/core/interface/customer';
import type { ProcedureMeta } from '../../openapi/procedure-meta';
import { facilitatedHeaders } from '../../openapi/headers';

export const createCustomerInput = customerRequest;
export const createCustomerOutput = customerResponse;

/** The REST operation (docs/DECISIONS.md "Card on file"): path, operationId, the type of `success`, headers and error statuses. */
export const createCustomerMeta = {
  successType: 'boolean',
  openapi: {
    method: 'POST',
    path: '/customers',
    operationId: 'createCustomer',
    tags: ['customers'],
    summary: 'Create a customer, or update the one of that merchant_customer_id',
    description:
      'One customer per merchant_customer_id: a second POST answers the same customer with the contact fields it sent replaced and the others kept. 200 either way.',
    requestHeaders: facilitatedHeaders,
    errorResponses: [400, 401, 403, 429],
  },
} satisfies ProcedureMeta;
