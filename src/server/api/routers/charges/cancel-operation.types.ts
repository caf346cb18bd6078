import { z } from 'zod';
import { merchantCode, merchantOperationNumber, pathParameter } from '@/server/core/interface/common';
import { cancellationResponse } from '@/server/core/interface/transaction';

export const cancelOperationInput = z.strictObject({
  merchant_code: pathParameter(merchantCode),
  merchant_operation_number: pathParameter(merchantOperationNumber),
});
export const cancelOperationOutput = cancellationResponse;
