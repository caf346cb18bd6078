import { z } from 'zod';
import { merchantCode } from '@/server/core/interface/common';
import { additionalFields, transactionId } from '../console-fields';

export const refundBatchInput = z.strictObject({
  merchantCode: merchantCode.optional(),
  items: z
    .array(z.strictObject({ transactionId, additional_fields: additionalFields }))
    .min(1, 'must hold 1 to 50 items')
    .max(50, 'must hold 1 to 50 items'),
});
