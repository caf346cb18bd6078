import { z } from 'zod';
import { merchantCode, merchantOperationNumber, pathParameter } from '@/server/core/interface/common';
import { transactionQueryResponse } from '@/server/core/interface/transaction';
import type { ProcedureMeta } from '../../openapi/procedure-meta';
import { facilitatedHeaders } from '../../openapi/headers';

export const getTransactionInput = z.strictObject({
  merchant_code: pathParameter(merchantCode),
  merchant_operation_number: pathParameter(merchantOperationNumber),
  transaction_id: pathParameter(z.string().min(1).max(64)),
});
export const getTransactionOutput = transactionQueryResponse;

/** The REST operation (docs/interface.md): path, operationId, the type of `success`, headers and error statuses. */
export const getTransactionMeta = {
  successType: 'boolean',
  openapi: {
    method: 'GET',
    path: '/charges/{merchant_code}/{merchant_operation_number}/{transaction_id}',
    operationId: 'getTransaction',
    tags: ['charges'],
    summary: 'Get an ecommerce transaction and its operation',
    requestHeaders: facilitatedHeaders,
    errorResponses: [400, 401, 403, 404, 429],
  },
} satisfies ProcedureMeta;
