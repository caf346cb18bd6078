import { changeMerchantUser } from '@/server/modules/access/merchant-users';
import { consoleActProcedure } from '../../../trpc';
import { setUserDisabledInput } from './set-user-disabled.types';

export const setUserDisabled = consoleActProcedure
  .input(setUserDisabledInput)
  .mutation(({ ctx, input }) => changeMerchantUser(ctx.prisma, ctx.scope, ctx.session.userId, input));
