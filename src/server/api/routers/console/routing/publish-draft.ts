import { publishDraft as publish } from '@/server/modules/routing/merchant-routing';
import { consoleActProcedure } from '../../../trpc';
import { ofMerchantMethod } from './routing-fields';

export const publishDraft = consoleActProcedure
  .input(ofMerchantMethod)
  .mutation(({ ctx, input }) => publish(ctx.prisma, ctx.scope, input));
