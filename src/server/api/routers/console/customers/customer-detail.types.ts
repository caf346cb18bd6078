import { z } from 'zod';

export const customerDetailInput = z.strictObject({ customerId: z.string().min(1).max(64) });
