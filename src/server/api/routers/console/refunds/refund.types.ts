import { z } from 'zod';
import { centsString } from '@/server/core/interface/common';
import { additionalFields, transactionId } from '../console-fields';

/** `amount`: a PARTIAL refund of so many cents; without it, a TOTAL one. */
export const refundInput = z.strictObject({ transactionId, amount: centsString.optional(), additional_fields: additionalFields });
