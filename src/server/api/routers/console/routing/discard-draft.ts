import { discardDraft as discard } from '@/server/modules/routing/merchant-routing';
import { consoleActProcedure } from '../../../trpc';
import { discardDraftInput } from './discard-draft.types';

export const discardDraft = consoleActProcedure
  .input(discardDraftInput)
  .mutation(({ ctx, input }) => discard(ctx.prisma, ctx.scope, input));
