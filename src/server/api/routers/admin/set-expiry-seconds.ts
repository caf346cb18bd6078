import { updateMerchant } from '@/server/services/admin/merchants';
import { platformActProcedure } from '../../trpc';
import { setExpirySecondsInput } from './set-expiry-seconds.types';

/** Expiries of seconds, below the console's whole minutes (CLI `update-merchant --expiry-seconds`): short-lived payments for demos and tests (docs/DECISIONS.md). */
export const setExpirySeconds = platformActProcedure
  .input(setExpirySecondsInput)
  .mutation(({ ctx, input }) => updateMerchant(ctx.prisma, input));
