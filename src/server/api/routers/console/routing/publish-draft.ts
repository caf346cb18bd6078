import { publishDraft as publish } from '@/server/modules/routing/merchant-routing';
import { consoleActProcedure } from '../../../trpc';
import { publishDraftInput } from './publish-draft.types';

export const publishDraft = consoleActProcedure
  .input(publishDraftInput)
  .mutation(({ ctx, input }) => publish(ctx.prisma, ctx.scope, input));
