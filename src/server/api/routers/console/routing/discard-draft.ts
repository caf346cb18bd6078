import { discardDraft as discard } from '@/server/modules/routing/merchant-routing';
import { consoleActProcedure } from '../../../trpc';
import { ofMerchantMethod } from './routing-fields';

export const discardDraft = consoleActProcedure
  .input(ofMerchantMethod)
  .mutation(({ ctx, input }) => discard(ctx.prisma, ctx.scope, input));
