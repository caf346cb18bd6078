import { z } from 'zod';
import { IDEMPOTENCY_KEY_PATTERN } from '@/server/modules/charges/idempotency';
import { SUPPORTED_API_VERSIONS } from '../trpc';

// Request headers documented on every integrator operation (docs/DESIGN.md 3).
export const apiVersion = z
  .enum([...SUPPORTED_API_VERSIONS] as [string, ...string[]])
  .meta({ description: 'API version; supported: 1709847567', example: '1709847567', default: '1709847567' });
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
