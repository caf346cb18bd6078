import { refundFromConsole } from '@/server/modules/console/console-actions';
import { consoleActProcedure } from '../../../trpc';
import { refundInput } from './refund.types';

export const refund = consoleActProcedure
  .input(refundInput)
  .mutation(({ ctx, input }) =>
    refundFromConsole(ctx.prisma, ctx.scope, input.transactionId, input.additional_fields, input.amount ?? null),
  );
