import { z } from 'zod';

// Shapes shared by every resource of the interface (part 2.1) and the rules of DESIGN.md 7.
export const centsString = z
  .string()
  .regex(/^[1-9][0-9]{0,11}$/, 'must be a positive integer amount in cents: digits only, no leading zero, at most 12 digits');

export const currencyCode = z.enum(['604', '840'], { error: 'must be 604 (PEN) or 840 (USD)' });

export const merchantCode = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'must be 1 to 64 letters, digits, - or _');

export const merchantOperationNumber = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, - or _');

export const httpUrl = z
  .string()
  .max(2048, 'must be at most 2048 characters')
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL');

export const uuid = z.uuid({ error: 'must be a UUID' });

export const timeObject = z
  .object({ utc_time: z.string(), unix_time: z.number().int() })
  .meta({ id: 'TimeObject', description: 'The same instant as ISO 8601 UTC text and Unix seconds.' });

export const metaStatus = z
  .object({
    status: z.object({
      code: z.string(),
      message_ilgn: z.array(z.object({ locale: z.string(), value: z.string() })),
    }),
  })
  .meta({ id: 'Meta' });

export const lifecycleEntry = z.object({ state: z.string(), date: timeObject });

export const shortText = (max = 128) => z.string().max(max, `must be at most ${max} characters`);
