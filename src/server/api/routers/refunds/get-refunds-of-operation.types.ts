import { z } from 'zod';
import { merchantCode, merchantOperationNumber, pathParameter } from '@/server/schemas/common';
import { refundListResponse } from '@/server/schemas/refund';

export const getRefundsOfOperationInput = z.strictObject({
  merchant_code: pathParameter(merchantCode),
  merchant_operation_number: pathParameter(merchantOperationNumber),
});
export const getRefundsOfOperationOutput = refundListResponse;
