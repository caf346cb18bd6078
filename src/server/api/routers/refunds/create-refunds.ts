import { actingMerchant } from '@/server/auth/acting-merchant';
import { parseIdempotencyKey, withIdempotency } from '@/server/services/idempotency';
import { requestRefunds } from '@/server/services/request-refunds';
import { refundCreateResponse, refundRequest } from '@/server/schemas/refund';
import { integratorProcedure } from '../../trpc';
import { refundHeaders } from '../../openapi/headers';
import { principalScope } from '../principal-scope';

export const createRefunds = integratorProcedure('post:charges')
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
  .input(refundRequest)
  .output(refundCreateResponse)
  .mutation(async ({ ctx, input }) => {
    const merchant = await actingMerchant(
      ctx.prisma,
      ctx.principal,
      input.merchant_code,
      ctx.headers.get('payment-facilitator-code'),
    );
    const key = parseIdempotencyKey(ctx.headers.get('idempotency-key'));
    return withIdempotency(ctx.prisma, { scope: principalScope(ctx.principal, 'refund'), key, body: input }, () =>
      requestRefunds(ctx.prisma, merchant, input),
    );
  });
