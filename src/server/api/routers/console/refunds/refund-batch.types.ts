import { z } from 'zod';
import { centsString, merchantCode } from '@/server/core/interface/common';
import { additionalFields, transactionId } from '../console-fields';

export const refundBatchInput = z.strictObject({
  merchantCode: merchantCode.optional(),
  items: z
    // `amount`: that item is a PARTIAL refund of so many cents; without it, a TOTAL one.
    .array(z.strictObject({ transactionId, amount: centsString.optional(), additional_fields: additionalFields }))
    .min(1, 'must hold 1 to 50 items')
    .max(50, 'must hold 1 to 50 items'),
});
