import { createMerchant as create } from '@/server/services/admin/merchants';
import { platformActProcedure } from '../../../trpc';
import { createMerchantInput } from './create-merchant.types';

export const createMerchant = platformActProcedure
  .input(createMerchantInput)
  .mutation(({ ctx, input }) => create(ctx.prisma, input));
