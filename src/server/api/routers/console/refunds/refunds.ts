import { consoleRefunds } from '@/server/modules/refunds/console-refunds';
import { consoleProcedure } from '../../../trpc';
import { refundsInput } from './refunds.types';

export const refunds = consoleProcedure
  .input(refundsInput)
  .query(({ ctx, input }) => consoleRefunds(ctx.prisma, ctx.scope, input));
