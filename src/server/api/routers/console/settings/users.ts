import { merchantUsers } from '@/server/modules/access/merchant-users';
import { consoleProcedure } from '../../../trpc';
import { ofMerchant } from '../console-fields';

export const users = consoleProcedure
  .input(ofMerchant)
  .query(({ ctx, input }) => merchantUsers(ctx.prisma, ctx.scope, input.merchantCode));
