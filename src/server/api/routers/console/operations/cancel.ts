import { cancelFromConsole } from '@/server/modules/console/console-actions';
import { consoleActProcedure } from '../../../trpc';
import { cancelInput } from './cancel.types';

export const cancel = consoleActProcedure
  .input(cancelInput)
  .mutation(({ ctx, input }) => cancelFromConsole(ctx.prisma, ctx.scope, input.transactionId, `console ${ctx.session.email}`));
