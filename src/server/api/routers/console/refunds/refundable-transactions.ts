import { refundableTransactions as refundable } from '@/server/modules/console/refundable-transactions';
import { consoleProcedure } from '../../../trpc';
import { refundableTransactionsInput } from './refundable-transactions.types';

export const refundableTransactions = consoleProcedure
  .input(refundableTransactionsInput)
  .query(({ ctx, input }) => refundable(ctx.prisma, ctx.scope, input));
