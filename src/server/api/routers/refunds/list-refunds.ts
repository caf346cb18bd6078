import { listingScope } from '@/server/modules/access/acting-merchant';
import { listRefunds as list } from '@/server/modules/refunds/list-refunds';
import { merchantProcedure } from '../../trpc';
import { facilitatedHeaders } from '../../openapi/headers';
import { listRefundsInput, listRefundsOutput } from './list-refunds.types';

export const listRefunds = merchantProcedure('get:charges', listRefundsInput)
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
  .output(listRefundsOutput)
  .query(async ({ ctx, input }) => {
    const { merchant_code: _named, ...filters } = input;
    return list(ctx.prisma, await listingScope(ctx.prisma, ctx.principal, ctx.merchant), filters);
  });
