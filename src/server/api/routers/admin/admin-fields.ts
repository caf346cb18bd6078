import { z } from 'zod';

/** Values the secret scan looks for as they are (a PAN's digits, a password). */
export const needles = z.array(z.string().min(4).max(64)).max(200);
