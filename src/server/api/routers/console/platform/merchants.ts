import { listMerchants } from '@/server/modules/merchants/platform-directory';
import { platformProcedure } from '../../../trpc';
import { merchantsInput } from './merchants.types';

export const merchants = platformProcedure
  .input(merchantsInput)
  .query(({ ctx, input }) => listMerchants(ctx.prisma, input.search));
