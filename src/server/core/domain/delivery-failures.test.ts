import { describe, expect, it } from 'vitest';
import { DELIVERY_FAILURES, deliveryFailureOf } from './delivery-failures';

// Every failure text the sender writes is read back as its kind, with its values, for the console to word.
describe('deliveryFailureOf', () => {
  it('reads back every kind the builders write', () => {
    expect(
      [
        DELIVERY_FAILURES.resolveTimeout('shop.example.pe', 2000),
        DELIVERY_FAILURES.unresolved('nonexistent.invalid', 'ENOTFOUND'),
        DELIVERY_FAILURES.unresolved('shop.example.pe', 'Error: queryA ESERVFAIL shop.example.pe'),
        DELIVERY_FAILURES.nonPublic('10.0.0.7'),
        DELIVERY_FAILURES.noAnswer(10000),
        DELIVERY_FAILURES.http(503),
        DELIVERY_FAILURES.endpointDisabled(),
        DELIVERY_FAILURES.endpointDisabledAfterDays(),
      ].map(deliveryFailureOf),
    ).toEqual([
      { kind: 'resolveTimeout', values: { host: 'shop.example.pe', code: '', ms: '2000' } },
      { kind: 'unresolved', values: { host: 'nonexistent.invalid', code: 'ENOTFOUND' } },
      { kind: 'unresolved', values: { host: 'shop.example.pe', code: 'Error: queryA ESERVFAIL shop.example.pe' } },
      { kind: 'nonPublic', values: { host: '', code: '', address: '10.0.0.7' } },
      { kind: 'noAnswer', values: { host: '', code: '', ms: '10000' } },
      { kind: 'http', values: { host: '', code: '', status: '503' } },
      { kind: 'endpointDisabled', values: { host: '', code: '' } },
      { kind: 'endpointDisabledAfterDays', values: { host: '', code: '' } },
    ]);
  });

  it('keeps any other text whole as a network error', () => {
    expect(deliveryFailureOf('connect ECONNREFUSED 203.0.113.9:443')).toEqual({
      kind: 'network',
      values: { detail: 'connect ECONNREFUSED 203.0.113.9:443' },
    });
  });
});
