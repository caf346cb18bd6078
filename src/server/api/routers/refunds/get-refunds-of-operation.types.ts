import { z } from 'zod';
import { merchantCode, merchantOperationNumber, pathParameter } from '@/server/core/interface/common';
import { refundListResponse } from '@/server/core/interface/refund';
import type { ProcedureMeta } from '../../openapi/procedure-meta';
import { facilitatedHeaders } from '../../openapi/headers';

export const getRefundsOfOperationInput = z.strictObject({
  merchant_code: pathParameter(merchantCode),
  merchant_operation_number: pathParameter(merchantOperationNumber),
});
export const getRefundsOfOperationOutput = refundListResponse;

/** The REST operation (docs/interface.md): path, operationId, the type of `success`, headers and error statuses. */
export const getRefundsOfOperationMeta = {
  successType: 'string',
  openapi: {
    method: 'GET',
    path: '/refund/{merchant_code}/{merchant_operation_number}',
    operationId: 'getRefundsOfOperation',
    tags: ['refunds'],
    summary: 'Refunds of one operation',
    description: 'An operation without refunds answers operations_count "0"; an unknown operation 404.',
    requestHeaders: facilitatedHeaders,
    errorResponses: [400, 401, 403, 404, 429],
  },
} satisfies ProcedureMeta;
