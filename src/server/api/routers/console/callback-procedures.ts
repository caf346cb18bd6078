import { z } from 'zod';
import { merchantCode } from '@/server/schemas/common';
import { CALLBACK_STATUSES, listCallbackEvents, resendFromConsole } from '@/server/services/console/callback-events';
import { scopeOf } from '@/server/services/console/merchant-scope';
import { consoleActProcedure, consoleReadProcedure } from '../../trpc';

// Callbacks in the console: the delivery log (any role, within its merchants) and the manual
// resend (admins only; another merchant's event is not found).
export const callbackProcedures = {
  callbackEvents: consoleReadProcedure
    .input(
      z.strictObject({
        merchantCode: merchantCode.optional(),
        status: z.enum(CALLBACK_STATUSES).optional(),
        cursor: z
          .string()
          .regex(/^\d{1,18}$/, 'cursor is not one this service issued')
          .optional(),
        limit: z.number().int().min(1).max(100).optional(),
      }),
    )
    .query(({ ctx, input }) => listCallbackEvents(ctx.prisma, scopeOf(ctx.session), input)),
  resendEvent: consoleActProcedure
    .input(z.strictObject({ eventId: z.uuid() }))
    .mutation(({ ctx, input }) => resendFromConsole(ctx.prisma, scopeOf(ctx.session), input.eventId)),
};
