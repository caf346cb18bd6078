import { refundDetail as detailOf } from '@/server/modules/refunds/refund-detail';
import { consoleProcedure } from '../../../trpc';
import { refundDetailInput } from './refund-detail.types';

export const refundDetail = consoleProcedure
  .input(refundDetailInput)
  .query(({ ctx, input }) => detailOf(ctx.prisma, ctx.scope, input.refundId));
