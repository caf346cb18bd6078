import { consoleCredentials } from '@/server/modules/access/console-credentials';
import { consoleProcedure } from '../../../trpc';
import { credentialsInput } from './credentials.types';

export const credentials = consoleProcedure
  .input(credentialsInput)
  .query(({ ctx, input }) => consoleCredentials(ctx.prisma, ctx.scope, input.merchantCode));
