import { generateKeyPairSync, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { newEndpointSecret } from '../webhooks/standard-webhooks';
import { verifyBody } from './sign';
import { callbackHeaders, endpointHeaders } from './signing';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
const body = JSON.stringify({ event_id: 'evt-9', event_type: 'transaction.authorized' });
const message = { eventId: 'evt-9', eventType: 'transaction.authorized', body };

describe('callback headers', () => {
  it('sign the body as before, and the event id, timestamp and body together', () => {
    const headers = callbackHeaders(message, { kid: 'k-1', privateKey }, 1_790_000_000);
    expect(headers).toMatchObject({
      'signature-key-id': 'k-1',
      'signature-timestamp': '1790000000',
      'x-event-id': 'evt-9',
      'x-event-type': 'transaction.authorized',
    });
    expect(verifyBody(body, headers.signature!, pem)).toBe(true);
    const signed = Buffer.from(`evt-9.1790000000.${body}`);
    expect(verify('sha512', signed, pem, Buffer.from(headers['timestamp-signature']!, 'base64'))).toBe(true);
    // Another timestamp under the same signature is not the callback that was sent.
    const moved = Buffer.from(`evt-9.1790000001.${body}`);
    expect(verify('sha512', moved, pem, Buffer.from(headers['timestamp-signature']!, 'base64'))).toBe(false);
  });
});

describe('endpoint headers', () => {
  it('are Standard Webhooks headers the reference library verifies, with the event type beside them', () => {
    const secret = newEndpointSecret();
    const headers = endpointHeaders(message, [secret], Math.floor(Date.now() / 1000));
    expect(headers['webhook-id']).toBe('evt-9');
    expect(headers['x-event-type']).toBe('transaction.authorized');
    expect(headers).not.toHaveProperty('signature');
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });
});
