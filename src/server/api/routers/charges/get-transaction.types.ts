import { z } from 'zod';
import { merchantCode, merchantOperationNumber, pathParameter } from '@/server/core/interface/common';
import { transactionQueryResponse } from '@/server/core/interface/transaction';

export const getTransactionInput = z.strictObject({
  merchant_code: pathParameter(merchantCode),
  merchant_operation_number: pathParameter(merchantOperationNumber),
  transaction_id: pathParameter(z.string().min(1).max(64)),
});
export const getTransactionOutput = transactionQueryResponse;
