import { describe, expect, it } from 'vitest';
import { evaluateRoutes, type EvaluateRoutesInput } from './evaluate-routes';
import { defaultRoutes, ruleRoutes, type RuleRoutesInput } from './routes';
import { SANDBOX_CONNECTORS, cardPayment, connector, yapePayment } from './test-facts';
import { EVERY_CAPABILITY, NO_SAVED_CARDS } from '@/server/core/domain/capabilities';
import type { ConnectorFacts } from './routes';

function evaluate(routes: RuleRoutesInput, overrides: Partial<EvaluateRoutesInput> = {}) {
  return evaluateRoutes({
    routes: ruleRoutes.parse(routes),
    platformDefault: false,
    payment: cardPayment(),
    connectors: SANDBOX_CONNECTORS,
    breakerAllows: () => true,
    ...overrides,
  });
}

const connectorsOf = (candidates: { connector: string }[]) => candidates.map(({ connector: id }) => id);

const A = 'sandbox-acquirer-a';
const B = 'sandbox-acquirer-b';

describe('evaluateRoutes (docs/ORCHESTRATION.md 2)', () => {
  it('orders the routes that hold by priority, lower first, whatever their order in the rule', () => {
    const candidates = evaluate([
      { connector: B, priority: 2 },
      { connector: A, priority: 1 },
    ]);
    expect(candidates).toEqual([
      { connector: A, route: 1, reason: 'priority 1, weight 100 of 100' },
      { connector: B, route: 0, reason: 'priority 2, weight 100 of 100' },
    ]);
  });

  it('leaves out routes whose conditions do not hold, and says which conditions chose the others', () => {
    const candidates = evaluate([
      { connector: A, priority: 1, conditions: { brands: ['MASTERCARD'] } },
      { connector: B, priority: 2, conditions: { brands: ['VISA'], currencies: ['604'] } },
      { connector: A, priority: 3 },
    ]);
    expect(candidates).toEqual([
      { connector: B, route: 1, reason: 'priority 2, weight 100 of 100, brand VISA, currency 604' },
      { connector: A, route: 2, reason: 'priority 3, weight 100 of 100' },
    ]);
  });

  it('returns no candidate when no route holds', () => {
    expect(evaluate([{ connector: A, priority: 1, conditions: { currencies: ['840'] } }])).toEqual([]);
  });

  it('leaves out a connector that does not exist, is disabled, or lacks the method or the currency', () => {
    const connectors = [
      connector('disabled', { enabled: false }),
      connector('yape-only', { methods: ['YAPE'] }),
      connector('usd-only', { currencies: ['840'] }),
      connector('fine'),
    ];
    const routes = ['missing', 'disabled', 'yape-only', 'usd-only', 'fine'].map((id, index) => ({
      connector: id,
      priority: index + 1,
    }));
    expect(connectorsOf(evaluate(routes, { connectors }))).toEqual(['fine']);
  });

  it('needs the instalments capability for a payment in more than one instalment', () => {
    const routes = [
      { connector: B, priority: 1 },
      { connector: A, priority: 2 },
    ];
    expect(connectorsOf(evaluate(routes, { payment: cardPayment({ instalments: 6 }) }))).toEqual([A]);
    expect(connectorsOf(evaluate(routes, { payment: cardPayment({ instalments: 1 }) }))).toEqual([B, A]);
  });

  it('lists a connector once: its first route wins', () => {
    const candidates = evaluate([
      { connector: A, priority: 1, conditions: { brands: ['VISA'] } },
      { connector: B, priority: 2 },
      { connector: A, priority: 3 },
    ]);
    expect(candidates.map(({ connector: id, route }) => [id, route])).toEqual([
      [A, 0],
      [B, 1],
    ]);
  });

  it('gives a connector already chosen at a lower priority no share of a later priority', () => {
    const candidates = evaluate([
      { connector: A, priority: 1 },
      { connector: A, priority: 2, weight: 60 },
      { connector: B, priority: 2, weight: 40 },
    ]);
    expect(candidates[1]).toEqual({ connector: B, route: 2, reason: 'priority 2, weight 40 of 40' });
  });

  it('marks the platform default with no route index', () => {
    const candidates = evaluate(defaultRoutes('CARD'), { platformDefault: true });
    expect(candidates).toEqual([
      { connector: A, route: null, reason: 'platform default, priority 1' },
      { connector: B, route: null, reason: 'platform default, priority 2' },
    ]);
  });

  it('routes a YAPE payment on the YAPE default', () => {
    const candidates = evaluate(defaultRoutes('YAPE'), { platformDefault: true, payment: yapePayment() });
    expect(connectorsOf(candidates)).toEqual(['sandbox-yape', 'sandbox-yape-b']);
  });
});

describe('weighted choice within a priority', () => {
  const split = [
    { connector: A, priority: 1, weight: 70 },
    { connector: B, priority: 1, weight: 30 },
  ];

  it('is stable for one operation: a replay picks the same processor', () => {
    for (let n = 0; n < 50; n += 1) {
      const payment = cardPayment({ stableKey: `merchant-1/op-${n}` });
      expect(evaluate(split, { payment })).toEqual(evaluate(split, { payment }));
    }
  });

  it('does not depend on the order of the routes in the rule', () => {
    const reversed = [...split].reverse();
    for (let n = 0; n < 50; n += 1) {
      const payment = cardPayment({ stableKey: `merchant-1/op-${n}` });
      expect(connectorsOf(evaluate(split, { payment }))).toEqual(connectorsOf(evaluate(reversed, { payment })));
    }
  });

  it('splits 10,000 operations 70/30 within 3 points, each listing the other connector second', () => {
    let first = 0;
    for (let n = 0; n < 10_000; n += 1) {
      const candidates = evaluate(split, { payment: cardPayment({ stableKey: `merchant-1/op-${n}` }) });
      expect(connectorsOf(candidates).sort()).toEqual([A, B]);
      if (candidates[0]?.connector === A) first += 1;
    }
    expect(first / 10_000).toBeGreaterThan(0.67);
    expect(first / 10_000).toBeLessThan(0.73);
  });

  it('splits three routes 50/30/20 within 3 points', () => {
    const connectors = [...SANDBOX_CONNECTORS, connector('c')];
    const routes = [
      { connector: A, priority: 1, weight: 50 },
      { connector: B, priority: 1, weight: 30 },
      { connector: 'c', priority: 1, weight: 20 },
    ];
    const counts: Record<string, number> = { [A]: 0, [B]: 0, c: 0 };
    for (let n = 0; n < 10_000; n += 1) {
      const [chosen] = evaluate(routes, { connectors, payment: cardPayment({ stableKey: `m/${n}` }) });
      counts[chosen!.connector]! += 1;
    }
    expect(Math.abs(counts[A]! / 10_000 - 0.5)).toBeLessThan(0.03);
    expect(Math.abs(counts[B]! / 10_000 - 0.3)).toBeLessThan(0.03);
    expect(Math.abs(counts.c! / 10_000 - 0.2)).toBeLessThan(0.03);
  });

  it('says each route weight out of its priority', () => {
    const candidates = evaluate(split);
    expect(candidates.find(({ connector: id }) => id === A)?.reason).toBe('priority 1, weight 70 of 100');
    expect(candidates.find(({ connector: id }) => id === B)?.reason).toBe('priority 1, weight 30 of 100');
  });

  it('only shares volume among routes whose conditions hold', () => {
    const candidates = evaluate([
      { connector: A, priority: 1, weight: 70, conditions: { brands: ['AMEX'] } },
      { connector: B, priority: 1, weight: 30 },
    ]);
    expect(candidates).toEqual([{ connector: B, route: 1, reason: 'priority 1, weight 30 of 30' }]);
  });
});

describe('breakers (docs/ORCHESTRATION.md 4)', () => {
  const routes = [
    { connector: A, priority: 1 },
    { connector: B, priority: 2 },
  ];

  it('skips a connector its breaker cuts off', () => {
    expect(connectorsOf(evaluate(routes, { breakerAllows: (id) => id !== A }))).toEqual([B]);
  });

  it('returns every candidate in order when every one is cut off, so the first is tried anyway', () => {
    const candidates = evaluate(routes, { breakerAllows: () => false });
    expect(candidates).toEqual([
      {
        connector: A,
        route: 0,
        reason: 'priority 1, weight 100 of 100; every candidate is cut off by its breaker, tried anyway',
      },
      {
        connector: B,
        route: 1,
        reason: 'priority 2, weight 100 of 100; every candidate is cut off by its breaker, tried anyway',
      },
    ]);
  });

  it('asks each eligible connector breaker once, in candidate order, and none that is not eligible', () => {
    const asked: string[] = [];
    evaluate([...routes, { connector: 'sandbox-yape', priority: 3 }, { connector: A, priority: 4 }], {
      breakerAllows: (id) => {
        asked.push(id);
        return true;
      },
    });
    expect(asked).toEqual([A, B]);
  });

  it('still returns nothing when no route holds, breakers or not', () => {
    expect(evaluate([{ connector: A, priority: 1, conditions: { brands: ['AMEX'] } }], { breakerAllows: () => false })).toEqual(
      [],
    );
  });
});

describe("a saved card's eligible processors (../shared CARD-ON-FILE.md 5)", () => {
  const saved = (capabilities: Partial<ConnectorFacts['capabilities']['savedCards']>) => ({
    ...EVERY_CAPABILITY,
    savedCards: { ...NO_SAVED_CARDS, ...capabilities },
  });
  const connectors = [
    connector('culqi', { capabilities: saved({ tokenize: true, tokenWithoutCode: true }) }),
    connector('mercadopago', { capabilities: saved({ tokenize: true, tokenWithoutCode: false }) }),
    connector('acquirer', { capabilities: saved({ mitWithNti: true }) }),
    connector('plain', { capabilities: saved({}) }),
  ];
  const routes = connectors.map(({ id }, index) => ({ connector: id, priority: index + 1 }));
  const eligible = (savedCard: { initiator: 'CUSTOMER' | 'MERCHANT'; securityCode: boolean; tokenAt: string[] }) =>
    connectorsOf(evaluate(routes, { connectors, payment: { ...cardPayment(), savedCard } }));

  it('an MIT: a processor whose token it charges without the code, or one that takes the NTI; never a token that needs the code', () => {
    expect(eligible({ initiator: 'MERCHANT', securityCode: false, tokenAt: ['culqi', 'mercadopago'] })).toEqual([
      'culqi',
      'acquirer',
    ]);
  });

  it('a one-click charge with its code: every card processor; without it, only those that need no code', () => {
    expect(eligible({ initiator: 'CUSTOMER', securityCode: true, tokenAt: ['mercadopago'] })).toEqual([
      'culqi',
      'mercadopago',
      'acquirer',
      'plain',
    ]);
    expect(eligible({ initiator: 'CUSTOMER', securityCode: false, tokenAt: ['culqi', 'mercadopago'] })).toEqual([
      'culqi',
      'acquirer',
    ]);
  });
});
