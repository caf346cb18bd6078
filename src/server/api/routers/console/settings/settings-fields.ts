import { z } from 'zod';
import { EXPIRY_MINUTES } from '@/server/core/domain/expiry';

export const expiryMinutes = z
  .number({ error: 'must be a whole number of minutes' })
  .int('must be a whole number of minutes')
  .min(EXPIRY_MINUTES.min, `must be at least ${EXPIRY_MINUTES.min} minute`)
  .max(EXPIRY_MINUTES.max, `must be at most ${EXPIRY_MINUTES.max} minutes (30 days)`);

export const merchantRole = z.enum(['MERCHANT_ADMIN', 'MERCHANT_VIEWER'], {
  error: 'must be MERCHANT_ADMIN or MERCHANT_VIEWER',
});

export const userId = z.uuid({ error: 'must be a user id' });
