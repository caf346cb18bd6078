import { z } from 'zod';
import { ofMerchant } from '../console-fields';

export const settleNowInput = z.strictObject({
  ...ofMerchant.shape,
  /** Only these AUTORIZADO transactions (the operator's tests settle one at a time). */
  transactionIds: z.array(z.uuid()).min(1).max(500).optional(),
});
