import { z } from 'zod';
import { merchantCode, merchantOperationNumber, pathParameter } from '@/server/core/interface/common';
import { cancellationResponse } from '@/server/core/interface/transaction';
import type { ProcedureMeta } from '../../openapi/procedure-meta';
import { facilitatedHeaders } from '../../openapi/headers';

export const cancelOperationInput = z.strictObject({
  merchant_code: pathParameter(merchantCode),
  merchant_operation_number: pathParameter(merchantOperationNumber),
});
export const cancelOperationOutput = cancellationResponse;

/** The REST operation (docs/interface.md): path, operationId, the type of `success`, headers and error statuses. */
export const cancelOperationMeta = {
  successType: 'boolean',
  openapi: {
    method: 'DELETE',
    path: '/charges/{merchant_code}/{merchant_operation_number}',
    operationId: 'cancelOperation',
    tags: ['charges'],
    summary: 'Cancel (REGISTRADO/PENDIENTE) or reverse (AUTORIZADO CARD/YAPE) an operation',
    description: 'A second call on a CANCELADO or EXTORNADO operation answers 200 with the current state.',
    requestHeaders: facilitatedHeaders,
    errorResponses: [400, 401, 403, 404, 409, 422, 429],
  },
} satisfies ProcedureMeta;
