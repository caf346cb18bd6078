import { describe, expect, it } from 'vitest';
import { mitRefusal, type SavedCardFacts } from './stored-credentials';

const NOW = new Date('2026-12-02T12:00:00Z');

function card(change: Partial<SavedCardFacts> = {}, consent: Partial<SavedCardFacts['consent']> = {}): SavedCardFacts {
  return {
    reason: 'RECURRING',
    currency: '604',
    expiryDate: '1230',
    mitCount: 0,
    ...change,
    consent: { acceptedAt: NOW, termsVersion: 'v1', maxAmount: 5000n, installments: null, ...consent },
  };
}

describe('what a consent covers', () => {
  it('covers an MIT of its reason, currency and amount on a card still valid', () => {
    expect(mitRefusal(card(), { reason: 'RECURRING', amount: 5000n, currency: '604' }, NOW)).toBeNull();
    expect(mitRefusal(card({}, { maxAmount: null }), { reason: 'RECURRING', amount: 999_999n, currency: '604' }, NOW)).toBeNull();
  });

  it.each([
    [
      'a one-click consent, for any MIT',
      card({ reason: 'ONE_CLICK' }),
      { reason: 'RECURRING', amount: 100n, currency: '604' },
      'reason',
    ],
    ['another reason', card(), { reason: 'UNSCHEDULED', amount: 100n, currency: '604' }, 'reason'],
    ['another currency', card(), { reason: 'RECURRING', amount: 100n, currency: '840' }, 'currency'],
    ['a cent over the maximum', card(), { reason: 'RECURRING', amount: 5001n, currency: '604' }, 'max_amount'],
    [
      'an instalment past those consented',
      card({ reason: 'INSTALLMENT', mitCount: 3 }, { installments: 3 }),
      { reason: 'INSTALLMENT', amount: 100n, currency: '604' },
      'installments',
    ],
    ['an expired card', card({ expiryDate: '1126' }), { reason: 'RECURRING', amount: 100n, currency: '604' }, 'expired'],
  ] as const)('refuses %s, saying why in both languages', (_, facts, mit, kind) => {
    const refusal = mitRefusal(facts, mit, NOW);
    expect(refusal?.kind).toBe(kind);
    expect(refusal?.es).toMatch(/\S/);
    expect(refusal?.en).toMatch(/\S/);
  });

  it('covers the last consented instalment and a card through the last day of its month', () => {
    const instalments = card({ reason: 'INSTALLMENT', mitCount: 2 }, { installments: 3 });
    expect(mitRefusal(instalments, { reason: 'INSTALLMENT', amount: 100n, currency: '604' }, NOW)).toBeNull();
    const lastDay = new Date('2026-12-31T23:59:59Z');
    expect(mitRefusal(card({ expiryDate: '1226' }), { reason: 'RECURRING', amount: 100n, currency: '604' }, lastDay)).toBeNull();
  });
});
