import { describe, expect, it } from 'vitest';
import { cardMethodDetails, describeCard } from '@/server/core/domain/card';
import { withoutUndefined } from './method-details';

describe('withoutUndefined', () => {
  it('drops undefined members only', () => {
    const result = withoutUndefined({ a: 'x', b: undefined, c: null, d: '' });
    expect(result).toStrictEqual({ a: 'x', c: null, d: '' });
    expect(Object.keys(result)).toEqual(['a', 'c', 'd']);
  });
});

describe('cardMethodDetails', () => {
  it('lists the seven card members of docs/interface.md 2.7', () => {
    expect(cardMethodDetails(describeCard('4000000000000002'))).toStrictEqual({
      masked_pan: '400000******0002',
      brand: 'VISA',
      bin: '400000',
      last_pan: '0002',
      card_type: 'CREDIT',
      card_country: 'US',
      issuer: 'SANDBOX TEST BANK',
    });
  });
});
