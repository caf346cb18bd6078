import type { KeyObject } from 'node:crypto';
import { standardWebhookHeaders } from '../webhooks/standard-webhooks';
import { signBody, signTimestamped } from './sign';

// How each delivery is signed (docs/DECISIONS.md "Standard Webhooks"): a webhook endpoint's in the
// Standard Webhooks format with its own secrets; a callback to an operation's callback_url as
// Pay-me notifications are (RSA-SHA512 over the body, the key named by `signature-key-id` and
// published at /webhooks/public-key), plus a signed timestamp; an endpoint made before endpoints
// had secrets is signed as a callback until its secret is generated (rotation).

type Message = { eventId: string; eventType: string | null; body: string };
type RsaKey = { kid: string; privateKey: KeyObject };

/** A callback's headers: the body's signature, and the timestamp's. */
export function callbackHeaders(message: Message, key: RsaKey, timestamp: number): Record<string, string> {
  return {
    signature: signBody(message.body, key.privateKey),
    'signature-key-id': key.kid,
    'signature-timestamp': String(timestamp),
    'timestamp-signature': signTimestamped(message.eventId, timestamp, message.body, key.privateKey),
    'x-event-id': message.eventId,
    ...(message.eventType ? { 'x-event-type': message.eventType } : {}),
  };
}

/** An endpoint delivery's headers: Standard Webhooks, signed with every secret still signing. */
export function endpointHeaders(message: Message, secrets: readonly string[], timestamp: number): Record<string, string> {
  return {
    ...standardWebhookHeaders(message.eventId, timestamp, message.body, secrets),
    ...(message.eventType ? { 'x-event-type': message.eventType } : {}),
  };
}
