import { merchantIdOf } from '@/server/modules/merchants/merchants';
import { awaitingSettlement as awaiting } from '@/server/modules/merchants/platform-directory';
import { platformProcedure } from '../../../trpc';
import { ofMerchant } from '../console-fields';

export const awaitingSettlement = platformProcedure
  .input(ofMerchant)
  .query(async ({ ctx, input }) => awaiting(ctx.prisma, await merchantIdOf(ctx.prisma, input.merchantCode)));
