import { z } from 'zod';
import { SCOPES } from '@/server/core/interface/token';
import { merchantCode } from '@/server/core/interface/common';

export const issueCredentialInput = z.strictObject({
  owner: z.union([z.strictObject({ merchantCode }), z.strictObject({ facilitatorCode: merchantCode })]),
  scopes: z.array(z.enum(SCOPES)).min(1).optional(),
  label: z.string().max(128).optional(),
  tokenTtlSeconds: z.number().int().min(1).max(86_400).optional(),
  rateLimitPerSecond: z.number().int().min(1).max(100_000).optional(),
});
