import { z } from 'zod';

export const resendEventInput = z.strictObject({ eventId: z.uuid() });
