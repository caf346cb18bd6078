import { cancelOperation as cancel } from '@/server/modules/charges/cancel-operation';
import { merchantProcedure } from '../../trpc';
import { facilitatedHeaders } from '../../openapi/headers';
import { cancelOperationInput, cancelOperationOutput } from './cancel-operation.types';

export const cancelOperation = merchantProcedure('delete:charges', cancelOperationInput)
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
  .output(cancelOperationOutput)
  .mutation(({ ctx, input }) => cancel(ctx.prisma, ctx.merchant, input.merchant_operation_number));
