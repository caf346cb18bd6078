import { rotateVault } from '@/server/modules/customers/vault';
import { platformActProcedure } from '../../../trpc';

/** A new key-encryption key of the saved cards' vault; the worker re-wraps every card under it (docs/DECISIONS.md "Card on file"). */
export const rotateVaultKey = platformActProcedure.mutation(({ ctx }) => rotateVault(ctx.prisma));
