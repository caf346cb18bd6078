import { merchantIdOf } from '@/server/modules/merchants/merchants';
import { awaitingSettlement as awaiting } from '@/server/modules/merchants/platform-directory';
import { platformProcedure } from '../../../trpc';
import { awaitingSettlementInput } from './awaiting-settlement.types';

export const awaitingSettlement = platformProcedure
  .input(awaitingSettlementInput)
  .query(async ({ ctx, input }) => awaiting(ctx.prisma, await merchantIdOf(ctx.prisma, input.merchantCode)));
