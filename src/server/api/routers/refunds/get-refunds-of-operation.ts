import { getRefundsOfOperation as refundsOf } from '@/server/modules/refunds/list-refunds';
import { merchantProcedure } from '../../trpc';
import { facilitatedHeaders } from '../../openapi/headers';
import { getRefundsOfOperationInput, getRefundsOfOperationOutput } from './get-refunds-of-operation.types';

export const getRefundsOfOperation = merchantProcedure('get:charges', getRefundsOfOperationInput)
  .meta({
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
  })
  .output(getRefundsOfOperationOutput)
  .query(({ ctx, input }) => refundsOf(ctx.prisma, ctx.merchant, input.merchant_operation_number));
