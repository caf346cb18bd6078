import { z } from 'zod';
import { CAPTURE_MODES, CAPTURE_WINDOW_DAYS } from '@/server/core/domain/money-movements';
import { ofMerchantMethod } from './routing-fields';

export const updateCaptureInput = z.strictObject({
  ...ofMerchantMethod.shape,
  mode: z.enum(CAPTURE_MODES),
  windowDays: z
    .number()
    .int()
    .min(CAPTURE_WINDOW_DAYS.min, `must be ${CAPTURE_WINDOW_DAYS.min} to ${CAPTURE_WINDOW_DAYS.max} days`)
    .max(CAPTURE_WINDOW_DAYS.max, `must be ${CAPTURE_WINDOW_DAYS.min} to ${CAPTURE_WINDOW_DAYS.max} days`)
    .optional(),
});
