import { z } from 'zod';
import { actingMerchant } from '@/server/auth/acting-merchant';
import { cancelOperation } from '@/server/services/cancel-operation';
import { merchantCode, merchantOperationNumber, pathParameter } from '@/server/schemas/common';
import { cancellationResponse } from '@/server/schemas/transaction';
import { integratorProcedure } from '../../trpc';
import { facilitatedHeaders } from '../../openapi/headers';

export const cancelOperationProcedure = integratorProcedure('delete:charges')
  .meta({
    successType: 'boolean',
    openapi: {
      method: 'DELETE',
      path: '/charges/{merchant_code}/{merchant_operation_number}',
      operationId: 'cancelOperation',
      tags: ['charges'],
      summary: 'Cancel (REGISTRADO/PENDIENTE) or reverse (AUTORIZADO CARD/YAPE) an operation',
      description: 'A second call on a CANCELADO or EXTORNADO operation answers 200 with the current state.',
      requestHeaders: facilitatedHeaders,
      errorResponses: [400, 401, 403, 404, 409, 422, 429],
    },
  })
  .input(
    z.strictObject({
      merchant_code: pathParameter(merchantCode),
      merchant_operation_number: pathParameter(merchantOperationNumber),
    }),
  )
  .output(cancellationResponse)
  .mutation(async ({ ctx, input }) => {
    const merchant = await actingMerchant(
      ctx.prisma,
      ctx.principal,
      input.merchant_code,
      ctx.headers.get('payment-facilitator-code'),
    );
    return cancelOperation(ctx.prisma, merchant, input.merchant_operation_number);
  });
