import { z } from 'zod';
import { transactionId } from '../console-fields';

export const cancelInput = z.strictObject({ transactionId });
