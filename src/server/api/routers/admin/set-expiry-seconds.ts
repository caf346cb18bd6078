import { updateMerchant } from '@/server/modules/merchants/merchants';
import { platformActProcedure } from '../../trpc';
import { setExpirySecondsInput } from './set-expiry-seconds.types';

/** Expiries of seconds, below the console's whole minutes (CLI `update-merchant --expiry-seconds`): short-lived payments for demos and tests (docs/DECISIONS.md). */
export const setExpirySeconds = platformActProcedure
  .input(setExpirySecondsInput)
  .mutation(({ ctx, input }) => updateMerchant(ctx.prisma, input));
