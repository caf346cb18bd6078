import { z } from 'zod';
import { transactionId } from '../console-fields';

export const operationInput = z.strictObject({ transactionId });
