import { z } from 'zod';
import { DEFAULT_OVERLAP_DAYS } from '@/server/modules/events/callbacks/signing-keys';

export const rotateCallbackKeyInput = z.strictObject({
  /** Days the replaced key stays published, so receivers that have only it still verify. */
  overlapDays: z.number().int().min(0).max(90).default(DEFAULT_OVERLAP_DAYS),
});
