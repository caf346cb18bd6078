import { captureFromConsole } from '@/server/modules/console/console-actions';
import { consoleActProcedure } from '../../../trpc';
import { captureInput } from './capture.types';

export const capture = consoleActProcedure
  .input(captureInput)
  .mutation(({ ctx, input }) => captureFromConsole(ctx.prisma, ctx.scope, input.transactionId, input.amount ?? null));
