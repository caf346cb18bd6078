import { z } from 'zod';

export const customersInput = z.strictObject({ q: z.string().max(128).optional() });
