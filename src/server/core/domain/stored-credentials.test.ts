import { describe, expect, it } from 'vitest';
import { instalmentsTaken, mitRefusal, type SavedCardFacts } from './stored-credentials';

const NOW = new Date('2026-12-02T12:00:00Z');

function card(change: Partial<SavedCardFacts> = {}, consent: Partial<SavedCardFacts['consent']> = {}): SavedCardFacts {
  return {
    reason: 'RECURRING',
    currency: '604',
    expiryDate: '1230',
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
    ['an expired card', card({ expiryDate: '1126' }), { reason: 'RECURRING', amount: 100n, currency: '604' }, 'expired'],
  ] as const)('refuses %s, saying why in both languages', (_, facts, mit, kind) => {
    const refusal = mitRefusal(facts, mit, NOW);
    expect(refusal?.kind).toBe(kind);
    expect(refusal?.es).toMatch(/\S/);
    expect(refusal?.en).toMatch(/\S/);
  });

  it('leaves an instalment consent’s count to the claim, which words its refusal so', () => {
    const instalments = card({ reason: 'INSTALLMENT' }, { installments: 3 });
    expect(mitRefusal(instalments, { reason: 'INSTALLMENT', amount: 100n, currency: '604' }, NOW)).toBeNull();
    expect(instalmentsTaken(3)).toEqual({
      kind: 'installments',
      es: 'el consentimiento cubre 3 cuotas y todas se cobraron o se están cobrando',
      en: 'the consent covers 3 instalments and all were charged or are being charged',
    });
  });

  it('covers a card through the last day of its month', () => {
    const lastDay = new Date('2026-12-31T23:59:59Z');
    expect(mitRefusal(card({ expiryDate: '1226' }), { reason: 'RECURRING', amount: 100n, currency: '604' }, lastDay)).toBeNull();
  });
});
