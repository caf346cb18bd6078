import { updateCapture as update } from '@/server/modules/routing/merchant-routing';
import { consoleActProcedure } from '../../../trpc';
import { updateCaptureInput } from './update-capture.types';

export const updateCapture = consoleActProcedure
  .input(updateCaptureInput)
  .mutation(({ ctx, input }) => update(ctx.prisma, ctx.scope, input));
