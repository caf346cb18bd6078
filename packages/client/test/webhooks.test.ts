import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { constructEvent, PayWebhookSignatureError } from '../src/webhooks.js';

// Deliveries signed by the reference library (standardwebhooks) stand for the service's.
const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw0d4rhf6MF4k=';
const other = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD';
const body = JSON.stringify({ event_id: 'evt-1', event_type: 'transaction.authorized' });

function signed(at: Date, secrets = [secret]) {
  const signature = secrets.map((each) => new Webhook(each).sign('evt-1', at, body)).join(' ');
  return { 'webhook-id': 'evt-1', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature };
}

describe('webhooks.constructEvent', () => {
  it('answers the message of a delivery signed with the secret, whatever the headers object', () => {
    const headers = signed(new Date());
    expect(constructEvent(body, headers, secret)).toEqual(JSON.parse(body));
    expect(constructEvent(Buffer.from(body), new Headers(headers), secret)).toEqual(JSON.parse(body));
  });

  it('takes one of two signatures during a rotation, and either secret of the receiver', () => {
    expect(constructEvent(body, signed(new Date(), [other, secret]), secret)).toMatchObject({ event_id: 'evt-1' });
    expect(constructEvent(body, signed(new Date()), [other, secret])).toMatchObject({ event_id: 'evt-1' });
  });

  it('refuses a tampered body, another secret, a missing header, an old and a future timestamp', () => {
    const headers = signed(new Date());
    expect(() => constructEvent(body.replace('authorized', 'declined'), headers, secret)).toThrow(PayWebhookSignatureError);
    expect(() => constructEvent(body, headers, other)).toThrow('no signature matches');
    expect(() => constructEvent(body, { ...headers, 'webhook-id': undefined }, secret)).toThrow('missing');
    expect(() => constructEvent(body, signed(new Date(Date.now() - 6 * 60_000)), secret)).toThrow('too old or too new');
    expect(() => constructEvent(body, signed(new Date(Date.now() + 6 * 60_000)), secret)).toThrow('too old or too new');
  });
});
