import { z } from 'zod';
import { merchantCode } from '@/server/core/interface/common';

export const inspectOperationInput = z.strictObject({ merchantCode, merchantOperationNumber: z.string().min(1).max(64) });
