import { z } from 'zod';
import { SCOPES } from '@/server/core/interface/token';
import { merchantCode } from '@/server/core/interface/common';

export const issueCredentialInput = z.strictObject({
  merchantCode: merchantCode.optional(),
  scopes: z
    .array(z.enum(SCOPES))
    .min(1)
    .refine((scopes) => scopes.includes('create:token'), 'must include create:token'),
  label: z.string().max(128),
});
