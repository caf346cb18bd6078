import { z } from 'zod';

export const merchantsInput = z.strictObject({ search: z.string().max(64).optional() });
