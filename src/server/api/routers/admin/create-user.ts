import { createConsoleUser } from '@/server/modules/access/users';
import { platformActProcedure } from '../../trpc';
import { createUserInput } from './create-user.types';

/** A console user with a password, of any role (the console invites merchant users). */
export const createUser = platformActProcedure
  .input(createUserInput)
  .mutation(({ ctx, input }) => createConsoleUser(ctx.prisma, input));
