import { actingMerchant } from '@/server/auth/acting-merchant';
import { authorizeCharge } from '@/server/services/authorize-charge';
import { parseIdempotencyKey, withIdempotency } from '@/server/services/idempotency';
import { chargeRequest } from '@/server/schemas/charge-request';
import { chargeResponse } from '@/server/schemas/transaction';
import { integratorProcedure } from '../../trpc';
import { chargeHeaders } from '../../openapi/headers';
import { principalScope } from '../principal-scope';

export const createCharge = integratorProcedure('post:charges')
  .meta({
    successType: 'string',
    openapi: {
      method: 'POST',
      path: '/charges',
      operationId: 'authorizeCharge',
      tags: ['charges'],
      summary: 'Authorize an ecommerce payment',
      description: 'CARD and YAPE answer AUTORIZADO (or DENEGADO); the other methods answer PENDIENTE with an expiration_date.',
      requestHeaders: chargeHeaders,
      errorResponses: [400, 401, 403, 409, 413, 422, 429],
    },
  })
  .input(chargeRequest)
  .output(chargeResponse)
  .mutation(async ({ ctx, input }) => {
    const merchant = await actingMerchant(
      ctx.prisma,
      ctx.principal,
      input.merchant_code,
      ctx.headers.get('payment-facilitator-code'),
    );
    const key = parseIdempotencyKey(ctx.headers.get('idempotency-key'));
    return withIdempotency(ctx.prisma, { scope: principalScope(ctx.principal, 'charges'), key, body: input }, () =>
      authorizeCharge(ctx.prisma, merchant, input),
    );
  });
