import { merchantSettings } from '@/server/modules/console/merchant-settings';
import { consoleProcedure } from '../../../trpc';
import { ofMerchant } from '../console-fields';

export const merchant = consoleProcedure
  .input(ofMerchant)
  .query(({ ctx, input }) => merchantSettings(ctx.prisma, ctx.scope, input.merchantCode));
