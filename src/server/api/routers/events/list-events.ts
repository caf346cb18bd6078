import { listingScope } from '@/server/modules/access/acting-merchant';
import { listEvents as list } from '@/server/modules/events/list-events';
import { merchantProcedure } from '../../trpc';
import { facilitatedHeaders } from '../../openapi/headers';
import { listEventsInput, listEventsOutput } from './list-events.types';

export const listEvents = merchantProcedure('get:events', listEventsInput)
  .meta({
    successType: 'boolean',
    openapi: {
      method: 'GET',
      path: '/events',
      operationId: 'listEvents',
      tags: ['events'],
      summary: 'List events',
      description:
        'The events of the merchant’s operations, oldest first, each with its callback body and how its delivery went: to catch up after an outage. `next_cursor` fetches the next page; a cursor stays valid while new events are written.',
      requestHeaders: facilitatedHeaders,
      errorResponses: [400, 401, 403, 429],
    },
  })
  .output(listEventsOutput)
  .query(async ({ ctx, input }) => {
    const { merchant_code: _named, ...filters } = input;
    return list(ctx.prisma, await listingScope(ctx.prisma, ctx.principal, ctx.merchant), filters);
  });
