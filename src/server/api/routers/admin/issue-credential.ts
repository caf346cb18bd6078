import { issueCredential as issue } from '@/server/modules/access/credentials';
import { platformActProcedure } from '../../trpc';
import { issueCredentialInput } from './issue-credential.types';

/** A credential of a merchant or a facilitator, with its own token lifetime and rate (the console issues merchants' with the defaults). */
export const issueCredential = platformActProcedure
  .input(issueCredentialInput)
  .mutation(({ ctx, input }) => issue(ctx.prisma, input));
