import { z } from 'zod';
import { merchantCode } from '@/server/core/interface/common';
import { MAX_EXPIRY_SECONDS, PENDING_METHODS } from '@/server/core/domain/expiry';

export const setExpirySecondsInput = z.strictObject({
  code: merchantCode,
  // null clears an override: the method's default applies again.
  expirySeconds: z.partialRecord(z.enum(PENDING_METHODS), z.number().int().min(1).max(MAX_EXPIRY_SECONDS).nullable()),
});
