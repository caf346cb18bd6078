import { merchantUsers } from '@/server/modules/access/merchant-users';
import { consoleProcedure } from '../../../trpc';
import { usersInput } from './users.types';

export const users = consoleProcedure
  .input(usersInput)
  .query(({ ctx, input }) => merchantUsers(ctx.prisma, ctx.scope, input.merchantCode));
