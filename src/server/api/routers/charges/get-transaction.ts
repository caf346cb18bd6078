import { getTransaction as transactionOf } from '@/server/modules/charges/get-transaction';
import { merchantProcedure } from '../../trpc';
import { facilitatedHeaders } from '../../openapi/headers';
import { getTransactionInput, getTransactionOutput } from './get-transaction.types';

export const getTransaction = merchantProcedure('get:charges', getTransactionInput)
  .meta({
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
  })
  .output(getTransactionOutput)
  .query(({ ctx, input }) => transactionOf(ctx.prisma, ctx.merchant, input.merchant_operation_number, input.transaction_id));
