import { z } from 'zod';

export const setEnabledInput = z.strictObject({ connector: z.string().min(1).max(64), enabled: z.boolean() });
