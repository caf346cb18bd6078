import { consoleIssueCredential } from '@/server/modules/access/console-credentials';
import { consoleActProcedure } from '../../../trpc';
import { issueCredentialInput } from './issue-credential.types';

export const issueCredential = consoleActProcedure
  .input(issueCredentialInput)
  .mutation(({ ctx, input }) => consoleIssueCredential(ctx.prisma, ctx.scope, input));
