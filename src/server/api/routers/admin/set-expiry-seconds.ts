import { updateMerchant } from '@/server/services/admin/merchants';
import { platformActProcedure } from '../../trpc';
import { setExpirySecondsInput } from './set-expiry-seconds.types';

/** Expiries of seconds, below the console's whole minutes: for the tests of expiring payments (docs/DECISIONS.md). */
export const setExpirySeconds = platformActProcedure
  .input(setExpirySecondsInput)
  .mutation(({ ctx, input }) => updateMerchant(ctx.prisma, input));
