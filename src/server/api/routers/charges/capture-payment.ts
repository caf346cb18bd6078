import { capturePayment as capture } from '@/server/modules/charges/capture-payment';
import { parseIdempotencyKey, withIdempotency } from '@/server/modules/charges/idempotency';
import { merchantProcedure } from '../../trpc';
import { principalScope } from '../principal-scope';
import { capturePaymentInput, capturePaymentMeta, capturePaymentOutput } from './capture-payment.types';

export const capturePayment = merchantProcedure('post:charges', capturePaymentInput)
  .meta(capturePaymentMeta)
  .output(capturePaymentOutput)
  .mutation(({ ctx, input }) => {
    const key = parseIdempotencyKey(ctx.headers.get('idempotency-key'));
    return withIdempotency(ctx.prisma, { scope: principalScope(ctx.principal, 'captures'), key, body: input }, () =>
      capture(
        ctx.prisma,
        ctx.merchant,
        input.merchant_operation_number,
        input.amount === undefined ? null : BigInt(input.amount),
      ),
    );
  });
