import { eventFilters, eventListResponse } from '@/server/core/interface/event';
import type { ProcedureMeta } from '../../openapi/procedure-meta';
import { facilitatedHeaders } from '../../openapi/headers';

export const listEventsInput = eventFilters;
export const listEventsOutput = eventListResponse;

/** The REST operation (docs/interface.md): path, operationId, the type of `success`, headers and error statuses. */
export const listEventsMeta = {
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
} satisfies ProcedureMeta;
