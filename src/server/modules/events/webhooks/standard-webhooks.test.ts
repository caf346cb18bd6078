import { afterEach, describe, expect, it, vi } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { newEndpointSecret, secretHintOf, signatureOf, standardWebhookHeaders } from './standard-webhooks';

// The reference library (npm standardwebhooks) is the receiver: what it verifies, a Standard
// Webhooks receiver accepts.

const body = JSON.stringify({ event_id: 'evt-1', event_type: 'transaction.authorized', amount: '15000' });
const now = () => Math.floor(Date.now() / 1000);

afterEach(() => {
  vi.useRealTimers();
});

describe('Standard Webhooks signatures', () => {
  it('makes secrets the reference library takes, and signs as it does', () => {
    const secret = newEndpointSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const at = new Date();
    const ours = signatureOf(secret, 'msg_1', Math.floor(at.getTime() / 1000), body);
    expect(ours).toBe(new Webhook(secret).sign('msg_1', at, body));
    expect(secretHintOf(secret)).toBe(`whsec_…${secret.slice(-4)}`);
  });

  it('is verified by the reference library; a tampered body or another secret is refused', () => {
    const secret = newEndpointSecret();
    const headers = standardWebhookHeaders('msg_2', now(), body, [secret]);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body.replace('15000', '15001'), headers)).toThrow('No matching signature found');
    expect(() => new Webhook(newEndpointSecret()).verify(body, headers)).toThrow('No matching signature found');
  });

  it('carries one signature per secret while a rotated one overlaps: either secret verifies', () => {
    const [current, previous] = [newEndpointSecret(), newEndpointSecret()];
    const headers = standardWebhookHeaders('msg_3', now(), body, [current, previous]);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('is refused by the reference library once its timestamp is more than five minutes old', () => {
    const secret = newEndpointSecret();
    const headers = standardWebhookHeaders('msg_4', now(), body, [secret]);
    vi.useFakeTimers({ now: Date.now() + 6 * 60_000 });
    expect(() => new Webhook(secret).verify(body, headers)).toThrow('Message timestamp too old');
  });

  it('refuses to sign without a secret', () => {
    expect(() => standardWebhookHeaders('msg_5', now(), body, [])).toThrow('needs a secret');
  });
});
