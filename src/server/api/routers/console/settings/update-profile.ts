import { changeMerchantSettings } from '@/server/modules/console/merchant-settings';
import { consoleActProcedure } from '../../../trpc';
import { updateProfileInput } from './update-profile.types';

export const updateProfile = consoleActProcedure
  .input(updateProfileInput)
  .mutation(({ ctx, input }) => changeMerchantSettings(ctx.prisma, ctx.scope, input));
