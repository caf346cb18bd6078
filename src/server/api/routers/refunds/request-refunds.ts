import { parseIdempotencyKey, withIdempotency } from '@/server/modules/charges/idempotency';
import { requestRefunds as request } from '@/server/modules/refunds/request-refunds';
import { merchantProcedure } from '../../trpc';
import { principalScope } from '../principal-scope';
import { requestRefundsMeta, requestRefundsInput, requestRefundsOutput } from './request-refunds.types';

export const requestRefunds = merchantProcedure('post:charges', requestRefundsInput)
  .meta(requestRefundsMeta)
  .output(requestRefundsOutput)
  .mutation(({ ctx, input }) => {
    const key = parseIdempotencyKey(ctx.headers.get('idempotency-key'));
    return withIdempotency(ctx.prisma, { scope: principalScope(ctx.principal, 'refund'), key, body: input }, () =>
      request(ctx.prisma, ctx.merchant, input),
    );
  });
