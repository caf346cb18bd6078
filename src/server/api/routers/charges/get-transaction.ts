import { z } from 'zod';
import { actingMerchant } from '@/server/auth/acting-merchant';
import { getTransaction } from '@/server/services/get-transaction';
import { merchantCode, merchantOperationNumber, pathParameter } from '@/server/schemas/common';
import { transactionQueryResponse } from '@/server/schemas/transaction';
import { integratorProcedure } from '../../trpc';
import { facilitatedHeaders } from '../../openapi/headers';

export const getTransactionProcedure = integratorProcedure('get:charges')
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
  .input(
    z.strictObject({
      merchant_code: pathParameter(merchantCode),
      merchant_operation_number: pathParameter(merchantOperationNumber),
      transaction_id: pathParameter(z.string().min(1).max(64)),
    }),
  )
  .output(transactionQueryResponse)
  .query(async ({ ctx, input }) => {
    const merchant = await actingMerchant(
      ctx.prisma,
      ctx.principal,
      input.merchant_code,
      ctx.headers.get('payment-facilitator-code'),
    );
    return getTransaction(ctx.prisma, merchant, input.merchant_operation_number, input.transaction_id);
  });
