import { createHmac, randomBytes } from 'node:crypto';

// Webhook endpoints deliver in the Standard Webhooks format (standardwebhooks.com, the spec of
// Svix and others): `webhook-id` (the message's id, the same on every retry), `webhook-timestamp`
// (Unix seconds of this attempt, so a receiver can refuse old or replayed messages) and
// `webhook-signature` (`v1,` then the base64 HMAC-SHA256 of `id.timestamp.body` keyed with the
// endpoint's secret; several space-separated while a rotated secret still overlaps). The secret
// is `whsec_` and the base64 of 32 random bytes, as the reference libraries take it.

const PREFIX = 'whsec_';

/** A new endpoint secret: `whsec_` and the base64 of 32 random bytes. */
export function newEndpointSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64')}`;
}

/** The key bytes of a `whsec_…` secret. */
function keyOf(secret: string): Buffer {
  if (!secret.startsWith(PREFIX)) throw new Error('not an endpoint secret');
  return Buffer.from(secret.slice(PREFIX.length), 'base64');
}

/** One `v1,` signature of a message. */
export function signatureOf(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The three headers of a delivery, signed with every secret given (the newest first). */
export function standardWebhookHeaders(
  id: string,
  timestamp: number,
  body: string,
  secrets: readonly string[],
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  if (secrets.length === 0) throw new Error('an endpoint delivery needs a secret to sign with');
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => signatureOf(secret, id, timestamp, body)).join(' '),
  };
}

/** What is shown of a secret after it was given: its prefix and last four. */
export function secretHintOf(secret: string): string {
  return `${PREFIX}…${secret.slice(-4)}`;
}
