import { changeMerchantUser } from '@/server/modules/access/merchant-users';
import { consoleActProcedure } from '../../../trpc';
import { setUserRoleInput } from './set-user-role.types';

export const setUserRole = consoleActProcedure
  .input(setUserRoleInput)
  .mutation(({ ctx, input }) => changeMerchantUser(ctx.prisma, ctx.scope, ctx.session.userId, input));
