import { unlinkMerchant as unlink } from '@/server/modules/merchants/merchants';
import { platformActProcedure } from '../../../trpc';
import { unlinkMerchantInput } from './unlink-merchant.types';

export const unlinkMerchant = platformActProcedure
  .input(unlinkMerchantInput)
  .mutation(({ ctx, input }) => unlink(ctx.prisma, input.merchantCode));
