import { describe, expect, it } from 'vitest';
import { PAYMENT_METHODS } from '@/server/core/domain/states';
import {
  CARD_BRANDS,
  CARD_TYPE_VALUES,
  conditionsHold,
  defaultRoutes,
  heldConditions,
  route,
  routeConditions,
  ruleRoutes,
  type PaymentFacts,
} from './routes';
import { cardPayment, yapePayment } from './test-facts';

/** Conditions written as the console sends them, parsed as a stored rule would be. */
function holds(conditions: unknown, payment: PaymentFacts): boolean {
  return conditionsHold(routeConditions.parse(conditions), payment);
}

describe('routeConditions (docs/ORCHESTRATION.md 2)', () => {
  it('accepts every condition in its documented form', () => {
    const conditions = {
      brands: ['VISA', 'MASTERCARD'],
      bin_prefixes: ['4', '40000000'],
      card_types: ['CREDIT', 'DEBIT', 'PREPAID'],
      card_countries: ['PE', 'US'],
      amount_min: '100',
      amount_max: '999999999999',
      currencies: ['604', '840'],
      instalments: true,
    };
    expect(routeConditions.parse(conditions)).toEqual(conditions);
  });

  it('knows the brands and card types domain/card.ts describes', () => {
    expect(CARD_BRANDS).toEqual(['VISA', 'MASTERCARD', 'AMEX', 'DINERS', 'DISCOVER']);
    expect(CARD_TYPE_VALUES).toEqual(['CREDIT', 'DEBIT', 'PREPAID']);
  });

  it.each([
    [{ brands: ['visa'] }, 'brands', 0],
    [{ brands: ['ELO'] }, 'brands', 0],
    [{ bin_prefixes: [''] }, 'bin_prefixes', 0],
    [{ bin_prefixes: ['123456789'] }, 'bin_prefixes', 0],
    [{ bin_prefixes: ['4x'] }, 'bin_prefixes', 0],
    [{ card_types: ['CHARGE'] }, 'card_types', 0],
    [{ card_countries: ['pe'] }, 'card_countries', 0],
    [{ card_countries: ['PER'] }, 'card_countries', 0],
    [{ currencies: ['978'] }, 'currencies', 0],
    [{ currencies: [604] }, 'currencies', 0],
  ])('refuses %j at %s[%i]', (conditions, key, index) => {
    const result = routeConditions.safeParse(conditions);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([[key, index]]);
  });

  it.each([['0'], ['0100'], ['1.5'], ['-1'], ['1000000000000'], [''], [100]])('refuses the amount %j', (amount) => {
    expect(routeConditions.safeParse({ amount_min: amount }).success).toBe(false);
    expect(routeConditions.safeParse({ amount_max: amount }).success).toBe(false);
  });

  it('refuses unknown keys and a non-boolean instalments', () => {
    expect(routeConditions.safeParse({ brand: ['VISA'] }).error?.issues[0]?.code).toBe('unrecognized_keys');
    expect(routeConditions.safeParse({ instalments: 'yes' }).success).toBe(false);
  });
});

describe('route and ruleRoutes', () => {
  it('defaults the weight to 100 and the conditions to none', () => {
    expect(route.parse({ connector: 'sandbox-acquirer-a', priority: 1 })).toEqual({
      connector: 'sandbox-acquirer-a',
      priority: 1,
      weight: 100,
      conditions: {},
    });
  });

  it.each([
    ['priority', 0],
    ['priority', 101],
    ['priority', 1.5],
    ['priority', '1'],
    ['weight', 0],
    ['weight', 101],
    ['weight', 2.5],
  ])('refuses %s %j', (key, value) => {
    const result = route.safeParse({ connector: 'sandbox-acquirer-a', priority: 1, [key]: value });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual([key]);
    expect(result.error?.issues[0]?.message).toBe(`${key} must be a whole number from 1 to 100`);
  });

  it('accepts the bounds of priority and weight', () => {
    expect(route.safeParse({ connector: 'x', priority: 100, weight: 1 }).success).toBe(true);
    expect(route.safeParse({ connector: 'x', priority: 1, weight: 100 }).success).toBe(true);
  });

  it('refuses an empty connector and unknown keys', () => {
    expect(route.safeParse({ connector: '', priority: 1 }).success).toBe(false);
    expect(route.safeParse({ connector: 'x', priority: 1, share: 5 }).success).toBe(false);
  });

  it('holds 1 to 20 routes', () => {
    const one = { connector: 'x', priority: 1 };
    expect(ruleRoutes.safeParse([]).success).toBe(false);
    expect(ruleRoutes.safeParse(Array.from({ length: 20 }, () => one)).success).toBe(true);
    expect(ruleRoutes.safeParse(Array.from({ length: 21 }, () => one)).success).toBe(false);
  });
});

describe('conditionsHold', () => {
  it('holds for a route without conditions, whatever the payment', () => {
    expect(conditionsHold({}, cardPayment())).toBe(true);
    expect(conditionsHold({}, yapePayment())).toBe(true);
    expect(heldConditions({}, cardPayment())).toEqual([]);
  });

  it.each([
    [{ brands: ['VISA'] }, true],
    [{ brands: ['MASTERCARD', 'AMEX'] }, false],
    [{ bin_prefixes: ['4'] }, true],
    [{ bin_prefixes: ['5', '4000'] }, true],
    [{ bin_prefixes: ['400001'] }, false],
    [{ bin_prefixes: ['40000000'] }, false], // longer than the 6-digit BIN the payment carries
    [{ card_types: ['CREDIT'] }, true],
    [{ card_types: ['DEBIT', 'PREPAID'] }, false],
    [{ card_countries: ['PE'] }, true],
    [{ card_countries: ['US'] }, false],
    [{ amount_min: '10000' }, true],
    [{ amount_min: '10001' }, false],
    [{ amount_max: '10000' }, true],
    [{ amount_max: '9999' }, false],
    [{ amount_min: '5000', amount_max: '20000' }, true],
    [{ currencies: ['604'] }, true],
    [{ currencies: ['840'] }, false],
    [{ instalments: false }, true],
    [{ instalments: true }, false],
    [{ brands: ['VISA'], currencies: ['840'] }, false],
    [{ brands: ['VISA'], currencies: ['604'], card_countries: ['PE'] }, true],
    [{ brands: [] }, false],
  ])('%j holds for a S/ 100.00 VISA credit card from PE: %s', (conditions, expected) => {
    expect(holds(conditions, cardPayment())).toBe(expected);
  });

  it('tells instalments over 1 from a single payment', () => {
    expect(conditionsHold({ instalments: true }, cardPayment({ instalments: 2 }))).toBe(true);
    expect(conditionsHold({ instalments: false }, cardPayment({ instalments: 2 }))).toBe(false);
    expect(conditionsHold({ instalments: false }, cardPayment({ instalments: 0 }))).toBe(true);
  });

  it('never holds a card condition for a payment without a card, not even a wallet card', () => {
    const walletCard = { brand: 'VISA', bin: '400000', cardType: 'CREDIT', cardCountry: 'PE' };
    for (const conditions of [
      { brands: ['VISA'] },
      { bin_prefixes: ['4'] },
      { card_types: ['CREDIT'] },
      { card_countries: ['PE'] },
      { instalments: false },
    ]) {
      expect(holds(conditions, yapePayment())).toBe(false);
      expect(holds(conditions, yapePayment(walletCard))).toBe(false);
    }
    expect(holds({ brands: ['VISA'] }, cardPayment({ brand: null }))).toBe(false);
    expect(conditionsHold({ bin_prefixes: ['4'] }, cardPayment({ bin: null }))).toBe(false);
  });

  it('holds amount and currency conditions for any method', () => {
    expect(conditionsHold({ amount_max: '5000', currencies: ['604'] }, yapePayment())).toBe(true);
  });

  it('describes what held, for the reason a transaction records', () => {
    const conditions = {
      brands: ['VISA' as const],
      bin_prefixes: ['5', '40'],
      card_types: ['CREDIT' as const],
      card_countries: ['PE'],
      amount_min: '100',
      amount_max: '20000',
      currencies: ['604' as const],
      instalments: true,
    };
    expect(heldConditions(conditions, cardPayment({ instalments: 3 }))).toEqual([
      'brand VISA',
      'BIN 40',
      'card type CREDIT',
      'card country PE',
      'amount 100 to 20000',
      'currency 604',
      '3 instalments',
    ]);
    expect(heldConditions({ amount_min: '100', instalments: false }, cardPayment())).toEqual([
      'amount at least 100',
      'no instalments',
    ]);
    expect(heldConditions({ amount_max: '20000' }, cardPayment())).toEqual(['amount at most 20000']);
    expect(heldConditions({ brands: ['AMEX'] }, cardPayment())).toBeNull();
  });
});

describe('defaultRoutes (docs/ORCHESTRATION.md 2)', () => {
  it('tries sandbox-acquirer-a, then sandbox-acquirer-b, for CARD', () => {
    expect(defaultRoutes('CARD')).toEqual([
      { connector: 'sandbox-acquirer-a', priority: 1, weight: 100, conditions: {} },
      { connector: 'sandbox-acquirer-b', priority: 2, weight: 100, conditions: {} },
    ]);
  });

  it('tries sandbox-yape, then sandbox-yape-b, for YAPE', () => {
    expect(defaultRoutes('YAPE').map(({ connector, priority }) => [connector, priority])).toEqual([
      ['sandbox-yape', 1],
      ['sandbox-yape-b', 2],
    ]);
  });

  it.each([
    ['BANK_TRANSFER', 'sandbox-bank-transfer'],
    ['CUOTEALO', 'sandbox-cuotealo'],
    ['PAGOEFECTIVO', 'sandbox-pagoefectivo'],
    ['QR', 'sandbox-qr'],
  ] as const)('sends %s to %s', (method, connector) => {
    expect(defaultRoutes(method)).toEqual([{ connector, priority: 1, weight: 100, conditions: {} }]);
  });

  it('is a valid rule for every method, and a fresh copy each time', () => {
    for (const method of PAYMENT_METHODS) expect(ruleRoutes.safeParse(defaultRoutes(method)).success).toBe(true);
    const first = defaultRoutes('CARD');
    first.pop();
    expect(defaultRoutes('CARD')).toHaveLength(2);
  });
});
