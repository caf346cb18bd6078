import { z } from 'zod';
import { merchantCode } from '@/server/core/interface/common';

export const refundableTransactionsInput = z.strictObject({
  merchantCode: merchantCode.optional(),
  search: z.string().max(128).optional(),
});
