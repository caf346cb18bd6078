import { z } from 'zod';

export const healthInput = z.strictObject({ window: z.enum(['hour', 'day', 'week']).default('day') });
