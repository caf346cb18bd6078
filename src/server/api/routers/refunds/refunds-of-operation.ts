import { z } from 'zod';
import { actingMerchant } from '@/server/auth/acting-merchant';
import { refundsOfOperation } from '@/server/services/list-refunds';
import { merchantCode, merchantOperationNumber, pathParameter } from '@/server/schemas/common';
import { refundListResponse } from '@/server/schemas/refund';
import { integratorProcedure } from '../../trpc';
import { facilitatedHeaders } from '../../openapi/headers';

export const refundsOfOperationProcedure = integratorProcedure('get:charges')
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
  .input(
    z.strictObject({
      merchant_code: pathParameter(merchantCode),
      merchant_operation_number: pathParameter(merchantOperationNumber),
    }),
  )
  .output(refundListResponse)
  .query(async ({ ctx, input }) => {
    const merchant = await actingMerchant(
      ctx.prisma,
      ctx.principal,
      input.merchant_code,
      ctx.headers.get('payment-facilitator-code'),
    );
    return refundsOfOperation(ctx.prisma, merchant, input.merchant_operation_number);
  });
