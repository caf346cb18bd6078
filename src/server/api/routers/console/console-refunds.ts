import { z } from 'zod';
import { merchantCode, shortText } from '@/server/schemas/common';
import { refundFromConsole } from '@/server/services/console/console-actions';
import { scopeOf } from '@/server/services/console/merchant-scope';
import { refundBatchFromConsole } from '@/server/services/console/refund-batch';
import { refundDetail } from '@/server/services/console/refund-detail';
import { refundableTransactions } from '@/server/services/console/refundable-transactions';
import { consoleActProcedure, consoleReadProcedure } from '../../trpc';

// The console's refund procedures: read for every role, file for admins (consoleActProcedure),
// always within the user's merchants (another merchant's refund or transaction is not found).
const transactionId = z.string().min(1).max(64);
const additionalFields = z.strictObject({
  canal: shortText(64),
  reason: shortText(256).min(1),
  description: shortText(1024),
});

export const consoleRefundProcedures = {
  refundDetail: consoleReadProcedure
    .input(z.strictObject({ refundId: z.string().min(1).max(64) }))
    .query(({ ctx, input }) => refundDetail(ctx.prisma, scopeOf(ctx.session), input.refundId)),
  refundableTransactions: consoleReadProcedure
    .input(z.strictObject({ merchantCode: merchantCode.optional(), search: z.string().max(128).optional() }))
    .query(({ ctx, input }) => refundableTransactions(ctx.prisma, scopeOf(ctx.session), input)),
  refund: consoleActProcedure
    .input(z.strictObject({ transactionId, additional_fields: additionalFields }))
    .mutation(({ ctx, input }) =>
      refundFromConsole(ctx.prisma, scopeOf(ctx.session), input.transactionId, input.additional_fields),
    ),
  refundBatch: consoleActProcedure
    .input(
      z.strictObject({
        merchantCode: merchantCode.optional(),
        items: z
          .array(z.strictObject({ transactionId, additional_fields: additionalFields }))
          .min(1, 'must hold 1 to 50 items')
          .max(50, 'must hold 1 to 50 items'),
      }),
    )
    .mutation(({ ctx, input }) => refundBatchFromConsole(ctx.prisma, scopeOf(ctx.session), input.merchantCode, input.items)),
};
