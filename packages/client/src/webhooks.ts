import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookMessage } from './types.js';

// Webhook endpoints' deliveries in the Standard Webhooks format (standardwebhooks.com):
// `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature` (space-separated
// `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per secret while a rotated one overlaps),
// keyed with the endpoint's `whsec_…` secret. `constructEvent` verifies a delivery, refuses one
// whose timestamp is outside the tolerance (a replay), and answers the parsed message, as
// Stripe's `webhooks.constructEvent` does.

export class PayWebhookSignatureError extends Error {
  override readonly name = 'PayWebhookSignatureError';
}

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const found = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(found) ? found[0] : found;
}

function keyOf(secret: string): Buffer {
  if (!secret.startsWith('whsec_')) throw new PayWebhookSignatureError('the secret is not an endpoint secret (whsec_…)');
  return Buffer.from(secret.slice('whsec_'.length), 'base64');
}

/**
 * Verifies a delivery and answers its message. `rawBody` exactly as received (before any JSON
 * parsing); `secret` the endpoint's, or several during a rotation. Answers the message typed as
 * the OpenAPI document's `WebhookMessage`: narrow on `action` ("notify" or "test") and `event_type`. Throws PayWebhookSignatureError
 * when a header is missing, the timestamp is more than `toleranceSeconds` (300) from now, or no
 * signature matches.
 */
export function constructEvent(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options: { toleranceSeconds?: number; now?: Date } = {},
): WebhookMessage {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures)
    throw new PayWebhookSignatureError('missing webhook-id, webhook-timestamp or webhook-signature');
  const seconds = Number(timestamp);
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const tolerance = options.toleranceSeconds ?? 300;
  if (!Number.isInteger(seconds) || Math.abs(now - seconds) > tolerance) {
    throw new PayWebhookSignatureError('the delivery is too old or too new (webhook-timestamp)');
  }
  const body = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  const given = signatures
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => Buffer.from(entry.slice(3), 'base64'));
  const secrets = typeof secret === 'string' ? [secret] : secret;
  const matches = secrets.some((each) => {
    const expected = createHmac('sha256', keyOf(each)).update(`${id}.${seconds}.${body}`).digest();
    return given.some((signature) => signature.length === expected.length && timingSafeEqual(signature, expected));
  });
  if (!matches) throw new PayWebhookSignatureError('no signature matches the secret');
  // Signed by the service: its body is the document's WebhookMessage.
  return JSON.parse(body) as WebhookMessage;
}

export const webhooks = { constructEvent };
