import { chargeRequest } from '@/server/core/interface/charge-request';
import { chargeResponse } from '@/server/core/interface/transaction';
import type { ProcedureMeta } from '../../openapi/procedure-meta';
import { chargeHeaders } from '../../openapi/headers';

export const authorizeChargeInput = chargeRequest;
export const authorizeChargeOutput = chargeResponse;

/** The REST operation (docs/interface.md): path, operationId, the type of `success`, headers and error statuses. */
export const authorizeChargeMeta = {
  successType: 'string',
  openapi: {
    method: 'POST',
    path: '/charges',
    operationId: 'authorizeCharge',
    tags: ['charges'],
    summary: 'Authorize an ecommerce payment',
    description:
      'CARD and YAPE answer AUTORIZADO (or DENEGADO); the other methods answer PENDIENTE with an expiration_date. ' +
      'A CARD payment that needs a 3-D Secure challenge answers PENDIENTE with continue_url (the hosted challenge page) ' +
      'and an expiration_date 10 minutes on; the outcome follows by callback and in GET. ' +
      'Routing may try more than one processor: each attempt is a transaction of the operation, and the answer carries ' +
      'the last; every transaction has additional_fields.processor (the connector) and additional_fields.attempt.',
    requestHeaders: chargeHeaders,
    errorResponses: [400, 401, 403, 404, 409, 413, 422, 429],
  },
} satisfies ProcedureMeta;
