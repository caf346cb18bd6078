import { changeMerchantSettings } from '@/server/modules/console/merchant-settings';
import { consoleActProcedure } from '../../../trpc';
import { updateExpiriesInput } from './update-expiries.types';

export const updateExpiries = consoleActProcedure
  .input(updateExpiriesInput)
  .mutation(({ ctx, input }) => changeMerchantSettings(ctx.prisma, ctx.scope, input));
