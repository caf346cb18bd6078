import { refundFilters, refundListResponse } from '@/server/core/interface/refund';
import type { ProcedureMeta } from '../../openapi/procedure-meta';
import { facilitatedHeaders } from '../../openapi/headers';

export const listRefundsInput = refundFilters;
export const listRefundsOutput = refundListResponse;

/** The REST operation (docs/interface.md): path, operationId, the type of `success`, headers and error statuses. */
export const listRefundsMeta = {
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
} satisfies ProcedureMeta;
