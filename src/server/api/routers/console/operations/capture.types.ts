import { z } from 'zod';
import { centsString } from '@/server/core/interface/common';
import { transactionId } from '../console-fields';

export const captureInput = z.strictObject({ transactionId, amount: centsString.optional() });
