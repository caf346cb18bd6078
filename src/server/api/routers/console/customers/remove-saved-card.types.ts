import { z } from 'zod';

export const removeSavedCardInput = z.strictObject({ customerId: z.string().min(1).max(64), cardId: z.string().min(1).max(64) });
