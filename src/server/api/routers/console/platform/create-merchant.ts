import { createMerchant as create } from '@/server/modules/merchants/merchants';
import { platformActProcedure } from '../../../trpc';
import { createMerchantInput } from './create-merchant.types';

export const createMerchant = platformActProcedure
  .input(createMerchantInput)
  .mutation(({ ctx, input }) => create(ctx.prisma, input));
