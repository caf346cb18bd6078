import { refundBatchFromConsole } from '@/server/modules/refunds/refund-batch';
import { consoleActProcedure } from '../../../trpc';
import { refundBatchInput } from './refund-batch.types';

export const refundBatch = consoleActProcedure
  .input(refundBatchInput)
  .mutation(({ ctx, input }) => refundBatchFromConsole(ctx.prisma, ctx.scope, input.merchantCode, input.items));
