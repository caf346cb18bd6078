import { changeMerchantSettings } from '@/server/modules/console/merchant-settings';
import { consoleActProcedure } from '../../../trpc';
import { updateMethodsInput } from './update-methods.types';

export const updateMethods = consoleActProcedure
  .input(updateMethodsInput)
  .mutation(({ ctx, input }) => changeMerchantSettings(ctx.prisma, ctx.scope, input));
