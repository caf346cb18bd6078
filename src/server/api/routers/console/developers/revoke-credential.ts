import { consoleRevokeCredential } from '@/server/modules/access/console-credentials';
import { consoleActProcedure } from '../../../trpc';
import { revokeCredentialInput } from './revoke-credential.types';

export const revokeCredential = consoleActProcedure
  .input(revokeCredentialInput)
  .mutation(({ ctx, input }) => consoleRevokeCredential(ctx.prisma, ctx.scope, input.clientId));
