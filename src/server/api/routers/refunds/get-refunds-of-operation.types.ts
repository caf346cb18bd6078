import { z } from 'zod';
import { merchantCode, merchantOperationNumber, pathParameter } from '@/server/core/interface/common';
import { refundListResponse } from '@/server/core/interface/refund';

export const getRefundsOfOperationInput = z.strictObject({
  merchant_code: pathParameter(merchantCode),
  merchant_operation_number: pathParameter(merchantOperationNumber),
});
export const getRefundsOfOperationOutput = refundListResponse;
