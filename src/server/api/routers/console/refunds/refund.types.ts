import { z } from 'zod';
import { additionalFields, transactionId } from '../console-fields';

export const refundInput = z.strictObject({ transactionId, additional_fields: additionalFields });
