import { z } from 'zod';
import { merchantCode } from '@/server/core/interface/common';
import { ROLES } from '@/server/modules/access/console-session';

export const createUserInput = z.strictObject({
  email: z.email(),
  password: z.string().min(10).max(200),
  role: z.enum(ROLES),
  merchantCode: merchantCode.optional(),
  name: z.string().max(128).optional(),
});
