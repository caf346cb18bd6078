import { z } from 'zod';
import { centsString, merchantCode, merchantOperationNumber, pathParameter } from '@/server/core/interface/common';
import { cancellationResponse } from '@/server/core/interface/transaction';
import type { ProcedureMeta } from '../../openapi/procedure-meta';
import { refundHeaders } from '../../openapi/headers';

export const capturePaymentInput = z.strictObject({
  merchant_code: pathParameter(merchantCode),
  merchant_operation_number: pathParameter(merchantOperationNumber),
  amount: centsString
    .optional()
    .meta({ description: 'Cents to capture, at most the authorized amount; without it, all of it. The rest is released.' }),
});
export const capturePaymentOutput = cancellationResponse;

/** The REST operation: path, operationId, the type of `success`, headers and error statuses. */
export const capturePaymentMeta = {
  successType: 'boolean',
  bodyOptional: true,
  openapi: {
    method: 'POST',
    path: '/charges/{merchant_code}/{merchant_operation_number}/capture',
    operationId: 'capturePayment',
    tags: ['charges'],
    summary: 'Capture a CARD payment authorized to be captured later, all of it or part, once',
    description:
      'The payment’s processor captures it (a part releases the rest). The answer is the operation as DELETE answers it, the transaction’s `additional_fields.capture.status` CAPTURED; the event `transaction.captured` is called back. Captured with its authorization, captured already, or not AUTORIZADO: 409 41. Over the authorized amount: 400 10. Processor not confirming yet: 503 with Retry-After (the worker asks it, never capturing twice).',
    requestHeaders: refundHeaders,
    errorResponses: [400, 401, 403, 404, 409, 422, 429, 503],
  },
} satisfies ProcedureMeta;
