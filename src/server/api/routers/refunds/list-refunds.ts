import { listingScope } from '@/server/modules/access/acting-merchant';
import { listRefunds as list } from '@/server/modules/refunds/list-refunds';
import { merchantProcedure } from '../../trpc';
import { listRefundsMeta, listRefundsInput, listRefundsOutput } from './list-refunds.types';

export const listRefunds = merchantProcedure('get:charges', listRefundsInput)
  .meta(listRefundsMeta)
  .output(listRefundsOutput)
  .query(async ({ ctx, input }) => {
    const { merchant_code: _named, ...filters } = input;
    return list(ctx.prisma, await listingScope(ctx.prisma, ctx.principal, ctx.merchant), filters);
  });
