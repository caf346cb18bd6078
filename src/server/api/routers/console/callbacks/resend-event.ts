import { resendFromConsole } from '@/server/modules/events/callback-events';
import { consoleActProcedure } from '../../../trpc';
import { resendEventInput } from './resend-event.types';

export const resendEvent = consoleActProcedure
  .input(resendEventInput)
  .mutation(({ ctx, input }) => resendFromConsole(ctx.prisma, ctx.scope, input.eventId));
