import { cancelOperation as cancel } from '@/server/modules/charges/cancel-operation';
import { merchantProcedure } from '../../trpc';
import { cancelOperationMeta, cancelOperationInput, cancelOperationOutput } from './cancel-operation.types';

export const cancelOperation = merchantProcedure('delete:charges', cancelOperationInput)
  .meta(cancelOperationMeta)
  .output(cancelOperationOutput)
  .mutation(({ ctx, input }) => cancel(ctx.prisma, ctx.merchant, input.merchant_operation_number));
