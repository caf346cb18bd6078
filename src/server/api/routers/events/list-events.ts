import { listingScope } from '@/server/modules/access/acting-merchant';
import { listEvents as list } from '@/server/modules/events/list-events';
import { merchantProcedure } from '../../trpc';
import { listEventsMeta, listEventsInput, listEventsOutput } from './list-events.types';

export const listEvents = merchantProcedure('get:events', listEventsInput)
  .meta(listEventsMeta)
  .output(listEventsOutput)
  .query(async ({ ctx, input }) => {
    const { merchant_code: _named, ...filters } = input;
    return list(ctx.prisma, await listingScope(ctx.prisma, ctx.principal, ctx.merchant), filters);
  });
