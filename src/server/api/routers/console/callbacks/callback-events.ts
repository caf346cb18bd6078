import { listCallbackEvents } from '@/server/modules/events/callback-events';
import { consoleProcedure } from '../../../trpc';
import { callbackEventsInput } from './callback-events.types';

export const callbackEvents = consoleProcedure
  .input(callbackEventsInput)
  .query(({ ctx, input }) => listCallbackEvents(ctx.prisma, ctx.scope, input));
