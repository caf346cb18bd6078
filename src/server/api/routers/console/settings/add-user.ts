import { addMerchantUser } from '@/server/modules/access/merchant-users';
import { consoleActProcedure } from '../../../trpc';
import { addUserInput } from './add-user.types';

export const addUser = consoleActProcedure
  .input(addUserInput)
  .mutation(({ ctx, input }) => addMerchantUser(ctx.prisma, ctx.scope, input));
