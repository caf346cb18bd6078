import { consoleRefunds } from '@/server/modules/refunds/console-refunds';
import { consoleProcedure } from '../../../trpc';
import { refundFilters } from '@/server/core/interface/refund';

export const refunds = consoleProcedure
  .input(refundFilters)
  .query(({ ctx, input }) => consoleRefunds(ctx.prisma, ctx.scope, input));
