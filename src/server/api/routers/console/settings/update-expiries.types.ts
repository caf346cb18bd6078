import { z } from 'zod';
import { PENDING_METHODS } from '@/server/core/domain/expiry';
import { ofMerchant } from '../console-fields';
import { expiryMinutes } from './settings-fields';

export const updateExpiriesInput = z.strictObject({
  ...ofMerchant.shape,
  // Only the methods sent change; null clears an override (the method's default applies again).
  expiryMinutes: z.partialRecord(z.enum(PENDING_METHODS), expiryMinutes.nullable()),
});
