import { z } from 'zod';
import { merchantCode } from '@/server/core/interface/common';
import { CALLBACK_STATUSES } from '@/server/modules/events/callback-events';

export const callbackEventsInput = z.strictObject({
  merchantCode: merchantCode.optional(),
  status: z.enum(CALLBACK_STATUSES).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.number().int().min(1).max(100).optional(),
});
