import { revokeCredential as revoke } from '@/server/modules/access/credentials';
import { platformActProcedure } from '../../trpc';
import { revokeCredentialInput } from './revoke-credential.types';

/** Any credential, a facilitator's included (the console revokes merchants'). */
export const revokeCredential = platformActProcedure
  .input(revokeCredentialInput)
  .mutation(({ ctx, input }) => revoke(ctx.prisma, input.clientId));
