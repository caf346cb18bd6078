import { merchantSettings } from '@/server/modules/console/merchant-settings';
import { consoleProcedure } from '../../../trpc';
import { merchantInput } from './merchant.types';

export const merchant = consoleProcedure
  .input(merchantInput)
  .query(({ ctx, input }) => merchantSettings(ctx.prisma, ctx.scope, input.merchantCode));
