import { parseIdempotencyKey, withIdempotency } from '@/server/modules/charges/idempotency';
import { requestRefunds as request } from '@/server/modules/refunds/request-refunds';
import { merchantProcedure } from '../../trpc';
import { refundHeaders } from '../../openapi/headers';
import { principalScope } from '../principal-scope';
import { requestRefundsInput, requestRefundsOutput } from './request-refunds.types';

export const requestRefunds = merchantProcedure('post:charges', requestRefundsInput)
  .meta({
    successType: 'string',
    openapi: {
      method: 'POST',
      path: '/refund',
      operationId: 'requestRefunds',
      tags: ['refunds'],
      summary: 'Request TOTAL refunds of LIQUIDADO transactions (CARD, YAPE, CUOTEALO)',
      description: 'All or nothing: one failing item fails the request, with every failing item in `errors`.',
      requestHeaders: refundHeaders,
      errorResponses: [400, 401, 403, 404, 409, 413, 422, 429],
    },
  })
  .output(requestRefundsOutput)
  .mutation(({ ctx, input }) => {
    const key = parseIdempotencyKey(ctx.headers.get('idempotency-key'));
    return withIdempotency(ctx.prisma, { scope: principalScope(ctx.principal, 'refund'), key, body: input }, () =>
      request(ctx.prisma, ctx.merchant, input),
    );
  });
