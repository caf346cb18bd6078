import { listCredentials as list } from '@/server/modules/access/credentials';
import { platformActProcedure } from '../../trpc';
import { listCredentialsInput } from './list-credentials.types';

/** Every credential, facilitators' included (the console lists one merchant's). */
export const listCredentials = platformActProcedure
  .input(listCredentialsInput)
  .query(({ ctx, input }) => list(ctx.prisma, input));
