import { resendEvent as resend } from '@/server/modules/events/resend-event';
import { platformActProcedure } from '../../trpc';
import { resendEventInput } from './resend-event.types';

/** Any event, at once (the console resends within the user's merchants). */
export const resendEvent = platformActProcedure
  .input(resendEventInput)
  .mutation(({ ctx, input }) => resend(ctx.prisma, input.eventId));
