import { linkMerchant as link } from '@/server/modules/merchants/merchants';
import { platformActProcedure } from '../../../trpc';
import { linkMerchantInput } from './link-merchant.types';

export const linkMerchant = platformActProcedure.input(linkMerchantInput).mutation(({ ctx, input }) => link(ctx.prisma, input));
