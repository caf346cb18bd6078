import { z } from 'zod';
import { IDEMPOTENCY_KEY_PATTERN } from '@/server/modules/charges/idempotency';
import { DEFAULT_API_VERSION, SUPPORTED_API_VERSIONS } from '../trpc';

// Request headers documented on every integrator operation (docs/DESIGN.md 3).
// ALG-API-VERSION is optional with its default, so generated clients need not send it.
export const apiVersion = z
  .enum([...SUPPORTED_API_VERSIONS] as [string, ...string[]])
  .optional()
  .meta({
    description: `API version; supported: ${DEFAULT_API_VERSION}. Without it, ${DEFAULT_API_VERSION} applies; another value is 400 code 11`,
    example: DEFAULT_API_VERSION,
    default: DEFAULT_API_VERSION,
    param: { required: false },
  });
const facilitator = z
  .string()
  .optional()
  .meta({ description: 'Payment facilitator code; required with facilitator credentials' });
const idempotencyKey = z
  .string()
  .regex(IDEMPOTENCY_KEY_PATTERN)
  .optional()
  .meta({ description: 'Same key and body within 24 h replay the stored answer; another body: 409 code 40' });
const requestId = z.string().optional().meta({ description: 'Echoed in the X-Request-Id response header; new when absent' });

export const chargeHeaders = z.object({
  'ALG-API-VERSION': apiVersion,
  'Idempotency-Key': idempotencyKey,
  'X-Request-Id': requestId,
});
export const facilitatedHeaders = z.object({
  'ALG-API-VERSION': apiVersion,
  'payment-facilitator-code': facilitator,
  'X-Request-Id': requestId,
});
export const refundHeaders = facilitatedHeaders.extend({ 'Idempotency-Key': idempotencyKey });
