import { describe, expect, it } from 'vitest';
import { SANDBOX_CONNECTORS, connector } from './test-facts';
import { fieldOf, validateRule } from './validate-rule';

const A = 'sandbox-acquirer-a';
const B = 'sandbox-acquirer-b'; // no instalments

const CARD_CONDITION_SAMPLES: Record<string, unknown> = {
  brands: ['VISA'],
  bin_prefixes: ['4'],
  card_types: ['DEBIT'],
  card_countries: ['PE'],
  instalments: false,
};

function errorsOf(input: unknown, method: Parameters<typeof validateRule>[1] = 'CARD', connectors = SANDBOX_CONNECTORS) {
  const result = validateRule(input, method, connectors);
  return result.ok ? [] : result.errors.map(({ field, code }) => [field, code]);
}

describe('fieldOf', () => {
  it('writes zod paths as the console names fields', () => {
    expect(fieldOf([])).toBe('routes');
    expect(fieldOf([0, 'conditions', 'amount_min'])).toBe('routes[0].conditions.amount_min');
    expect(fieldOf([3, 'conditions', 'brands', 1])).toBe('routes[3].conditions.brands[1]');
  });
});

describe('validateRule (docs/ORCHESTRATION.md 2)', () => {
  it('accepts a valid rule and answers it with the defaults applied', () => {
    const result = validateRule(
      [
        { connector: A, priority: 1, weight: 70, conditions: { brands: ['VISA'], instalments: true } },
        { connector: B, priority: 1, weight: 30 },
        { connector: B, priority: 2, conditions: { amount_min: '100', amount_max: '100', currencies: ['604', '840'] } },
      ],
      'CARD',
      SANDBOX_CONNECTORS,
    );
    expect(result).toEqual({
      ok: true,
      routes: [
        { connector: A, priority: 1, weight: 70, conditions: { brands: ['VISA'], instalments: true } },
        { connector: B, priority: 1, weight: 30, conditions: {} },
        {
          connector: B,
          priority: 2,
          weight: 100,
          conditions: { amount_min: '100', amount_max: '100', currencies: ['604', '840'] },
        },
      ],
    });
  });

  it('accepts the YAPE default-like rule', () => {
    const result = validateRule(
      [
        { connector: 'sandbox-yape', priority: 1, conditions: { amount_max: '50000', currencies: ['604'] } },
        { connector: 'sandbox-yape-b', priority: 2 },
      ],
      'YAPE',
      SANDBOX_CONNECTORS,
    );
    expect(result.ok).toBe(true);
  });

  it.each([
    [undefined, [['routes', 'invalid_type']]],
    [{}, [['routes', 'invalid_type']]],
    [[], [['routes', 'too_small']]],
    [Array.from({ length: 21 }, (_, index) => ({ connector: A, priority: index + 1 })), [['routes', 'too_big']]],
    [[{ priority: 1 }], [['routes[0].connector', 'invalid_type']]],
    [[{ connector: A, priority: 0 }], [['routes[0].priority', 'too_small']]],
    [[{ connector: A, priority: 1, weight: 101 }], [['routes[0].weight', 'too_big']]],
    [
      [{ connector: A, priority: 1, conditions: { amount_min: '1.50' } }],
      [['routes[0].conditions.amount_min', 'invalid_format']],
    ],
    [
      [{ connector: A, priority: 1, conditions: { brands: ['VISA', 'ELO'] } }],
      [['routes[0].conditions.brands[1]', 'invalid_value']],
    ],
    [
      [{ connector: A, priority: 1, cost: 1, conditions: { brand: 'VISA', mcc: '5411' } }],
      [
        ['routes[0].cost', 'unrecognized_keys'],
        ['routes[0].conditions.brand', 'unrecognized_keys'],
        ['routes[0].conditions.mcc', 'unrecognized_keys'],
      ],
    ],
  ])('refuses the shape %j', (input, errors) => {
    expect(errorsOf(input).sort()).toEqual(errors.sort());
  });

  it('gives clear messages for shape errors', () => {
    const result = validateRule([{ connector: A, priority: 1, weight: 0, extra: true }], 'CARD', SANDBOX_CONNECTORS);
    expect(result).toEqual({
      ok: false,
      errors: expect.arrayContaining([
        { field: 'routes[0].weight', code: 'too_small', message: 'weight must be a whole number from 1 to 100' },
        { field: 'routes[0].extra', code: 'unrecognized_keys', message: 'is not a known field' },
      ]) as unknown,
    });
  });

  it.each([
    ['unknown_connector', 'missing', 'there is no connector "missing"'],
    ['disabled_connector', 'off', 'connector "off" is disabled'],
    ['method_not_supported', 'sandbox-yape', 'connector "sandbox-yape" does not carry CARD payments (it carries YAPE)'],
  ])('refuses %s', (code, id, message) => {
    const connectors = [...SANDBOX_CONNECTORS, connector('off', { enabled: false })];
    const result = validateRule([{ connector: id, priority: 1 }], 'CARD', connectors);
    expect(result).toEqual({ ok: false, errors: [{ field: 'routes[0].connector', code, message }] });
  });

  it('refuses a currency condition the connector does not take', () => {
    const connectors = [connector('pen-only', { currencies: ['604'] })];
    const result = validateRule(
      [{ connector: 'pen-only', priority: 1, conditions: { currencies: ['604', '840'] } }],
      'CARD',
      connectors,
    );
    expect(result).toEqual({
      ok: false,
      errors: [
        {
          field: 'routes[0].conditions.currencies[1]',
          code: 'currency_not_supported',
          message: 'connector "pen-only" does not take payments in 840',
        },
      ],
    });
  });

  it.each(['brands', 'bin_prefixes', 'card_types', 'card_countries', 'instalments'])(
    'refuses the card condition %s on YAPE (a wallet card is not routable)',
    (key) => {
      const value = CARD_CONDITION_SAMPLES[key];
      const result = validateRule(
        [{ connector: 'sandbox-yape', priority: 1, conditions: { [key]: value } }],
        'YAPE',
        SANDBOX_CONNECTORS,
      );
      expect(result).toEqual({
        ok: false,
        errors: [
          {
            field: `routes[0].conditions.${key}`,
            code: 'never_matches',
            message: `card conditions apply only to CARD payments; no YAPE payment can meet ${key}`,
          },
        ],
      });
    },
  );

  it('refuses card conditions on every method without cards', () => {
    expect(
      errorsOf([{ connector: 'sandbox-pagoefectivo', priority: 1, conditions: { brands: ['VISA'] } }], 'PAGOEFECTIVO'),
    ).toEqual([['routes[0].conditions.brands', 'never_matches']]);
  });

  it('refuses amount_min over amount_max, on amount_max', () => {
    const result = validateRule(
      [{ connector: A, priority: 1, conditions: { amount_min: '10000', amount_max: '9999' } }],
      'CARD',
      SANDBOX_CONNECTORS,
    );
    expect(result).toEqual({
      ok: false,
      errors: [
        {
          field: 'routes[0].conditions.amount_max',
          code: 'never_matches',
          message: 'must be at least amount_min (10000): no amount is both at least 10000 and at most 9999',
        },
      ],
    });
  });

  it('compares amounts as numbers, not as text', () => {
    expect(errorsOf([{ connector: A, priority: 1, conditions: { amount_min: '9', amount_max: '10' } }])).toEqual([]);
  });

  it('refuses instalments: true on a connector without instalments, but not instalments: false', () => {
    expect(errorsOf([{ connector: B, priority: 1, conditions: { instalments: true } }])).toEqual([
      ['routes[0].conditions.instalments', 'instalments_not_supported'],
    ]);
    expect(errorsOf([{ connector: B, priority: 1, conditions: { instalments: false } }])).toEqual([]);
  });

  it('refuses a connector twice in one priority, on the second route, but allows it at another priority', () => {
    const result = validateRule(
      [
        { connector: A, priority: 1, conditions: { brands: ['VISA'] } },
        { connector: B, priority: 1 },
        { connector: A, priority: 1, conditions: { brands: ['AMEX'] } },
        { connector: A, priority: 2 },
      ],
      'CARD',
      SANDBOX_CONNECTORS,
    );
    expect(result).toEqual({
      ok: false,
      errors: [
        {
          field: 'routes[2].connector',
          code: 'duplicate_connector',
          message:
            'connector "sandbox-acquirer-a" already has a route at priority 1 (routes[0]); give one of them another priority',
        },
      ],
    });
  });

  it.each(['brands', 'bin_prefixes', 'card_types', 'card_countries', 'currencies'])(
    'refuses an empty %s list: never_matches',
    (key) => {
      expect(validateRule([{ connector: A, priority: 1, conditions: { [key]: [] } }], 'CARD', SANDBOX_CONNECTORS)).toEqual({
        ok: false,
        errors: [
          {
            field: `routes[0].conditions.${key}`,
            code: 'never_matches',
            message: 'an empty list matches no payment; leave the condition out to match every payment',
          },
        ],
      });
    },
  );

  it.each([
    ['YAPE', 'sandbox-yape'],
    ['QR', 'sandbox-qr'],
  ] as const)('refuses 840 on %s, which is PEN only, as never_matches and not also as the connector currency', (method, id) => {
    const result = validateRule(
      [{ connector: id, priority: 1, conditions: { currencies: ['604', '840'] } }],
      method,
      SANDBOX_CONNECTORS,
    );
    expect(result).toEqual({
      ok: false,
      errors: [
        {
          field: 'routes[0].conditions.currencies[1]',
          code: 'never_matches',
          message: `${method} payments are only in 604; none is in 840`,
        },
      ],
    });
  });

  it('does not hold an unknown or other-method connector to capabilities: one error per problem', () => {
    expect(errorsOf([{ connector: 'missing', priority: 1, conditions: { instalments: true, currencies: ['840'] } }])).toEqual([
      ['routes[0].connector', 'unknown_connector'],
    ]);
    expect(errorsOf([{ connector: 'sandbox-qr', priority: 1, conditions: { instalments: true, currencies: ['840'] } }])).toEqual([
      ['routes[0].connector', 'method_not_supported'],
    ]);
  });

  it('holds a disabled connector to its capabilities too', () => {
    const connectors = [connector('off', { enabled: false, currencies: ['604'] })];
    expect(errorsOf([{ connector: 'off', priority: 1, conditions: { currencies: ['840'] } }], 'CARD', connectors)).toEqual([
      ['routes[0].connector', 'disabled_connector'],
      ['routes[0].conditions.currencies[0]', 'currency_not_supported'],
    ]);
  });

  it('lists shape errors first, then every other problem route by route, checking the routes whose shape is valid', () => {
    expect(
      errorsOf([
        { connector: 'missing', priority: 1 },
        { connector: A, priority: 'first' },
        { connector: B, priority: 2, conditions: { brands: [], instalments: true } },
      ]),
    ).toEqual([
      ['routes[1].priority', 'invalid_type'],
      ['routes[0].connector', 'unknown_connector'],
      ['routes[2].conditions.brands', 'never_matches'],
      ['routes[2].conditions.instalments', 'instalments_not_supported'],
    ]);
  });
});
