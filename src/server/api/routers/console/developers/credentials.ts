import { consoleCredentials } from '@/server/modules/access/console-credentials';
import { consoleProcedure } from '../../../trpc';
import { ofMerchant } from '../console-fields';

export const credentials = consoleProcedure
  .input(ofMerchant)
  .query(({ ctx, input }) => consoleCredentials(ctx.prisma, ctx.scope, input.merchantCode));
