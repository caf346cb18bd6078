import { z } from 'zod';

export const refundDetailInput = z.strictObject({ refundId: z.string().min(1).max(64) });
