import { refundCreateResponse, refundRequest } from '@/server/core/interface/refund';
import type { ProcedureMeta } from '../../openapi/procedure-meta';
import { refundHeaders } from '../../openapi/headers';

export const requestRefundsInput = refundRequest;
export const requestRefundsOutput = refundCreateResponse;

/** The REST operation (docs/interface.md): path, operationId, the type of `success`, headers and error statuses. */
export const requestRefundsMeta = {
  successType: 'string',
  openapi: {
    method: 'POST',
    path: '/refund',
    operationId: 'requestRefunds',
    tags: ['refunds'],
    summary: 'Request TOTAL or PARTIAL refunds of LIQUIDADO transactions (CARD, YAPE, CUOTEALO)',
    description:
      'All or nothing: one failing item fails the request, with every failing item in `errors`. TOTAL refunds all of what was captured, once; PARTIAL refunds part of what is still refundable, as many times as they add up to it (one over it is 409 41). A processor that refunds only in whole takes no PARTIAL (422 42).',
    requestHeaders: refundHeaders,
    errorResponses: [400, 401, 403, 404, 409, 413, 422, 429],
  },
} satisfies ProcedureMeta;
