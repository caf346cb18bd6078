import { routingView } from '@/server/modules/routing/merchant-routing';
import { consoleProcedure } from '../../../trpc';
import { ofMerchantMethod } from './routing-fields';

/** Every role reads routing within its scope; only merchant admins and platform admins change it. */
export const routing = consoleProcedure
  .input(ofMerchantMethod)
  .query(({ ctx, input }) => routingView(ctx.prisma, ctx.scope, input.merchantCode, input.method));
