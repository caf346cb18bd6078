import { actingMerchant, visibleMerchantIds } from '@/server/auth/acting-merchant';
import { AppError } from '@/server/domain/errors';
import { listRefunds } from '@/server/services/list-refunds';
import { refundFilters, refundListResponse } from '@/server/schemas/refund';
import { integratorProcedure } from '../../trpc';
import { facilitatedHeaders } from '../../openapi/headers';

export const listRefundsProcedure = integratorProcedure('get:charges')
  .meta({
    successType: 'string',
    openapi: {
      method: 'GET',
      path: '/refund',
      operationId: 'listRefunds',
      tags: ['refunds'],
      summary: 'Search refunds',
      description:
        'Dates are inclusive days of the business time zone (America/Lima by default). Newest first; `next_cursor` fetches the next page.',
      requestHeaders: facilitatedHeaders,
      errorResponses: [400, 401, 403, 429],
    },
  })
  .input(refundFilters)
  .output(refundListResponse)
  .query(async ({ ctx, input }) => {
    const principal = ctx.principal;
    const facilitatorHeader = ctx.headers.get('payment-facilitator-code');
    const { merchant_code: named, ...filters } = input;
    const ownCode = named ?? principal.merchantCode;
    if (ownCode !== null) {
      const merchant = await actingMerchant(ctx.prisma, principal, ownCode, facilitatorHeader);
      return listRefunds(ctx.prisma, { merchantIds: [merchant.id], merchantCode: merchant.code }, filters);
    }
    if (facilitatorHeader !== principal.facilitatorCode) {
      throw new AppError('FORBIDDEN', 'facilitator credentials must send a matching payment-facilitator-code');
    }
    const merchantIds = await visibleMerchantIds(ctx.prisma, principal);
    return listRefunds(ctx.prisma, { merchantIds, merchantCode: principal.facilitatorCode ?? '' }, filters);
  });
