import { saveDraft as save } from '@/server/modules/routing/merchant-routing';
import { consoleActProcedure } from '../../../trpc';
import { saveDraftInput } from './save-draft.types';

export const saveDraft = consoleActProcedure
  .input(saveDraftInput)
  .mutation(({ ctx, input }) => save(ctx.prisma, ctx.scope, input, ctx.session.email));
