import { describe, expect, it } from 'vitest';
import { tryRule } from './dry-run';
import { defaultRoutes, ruleRoutes } from './routes';
import { SANDBOX_CONNECTORS, cardPayment } from './test-facts';

const A = 'sandbox-acquirer-a';
const B = 'sandbox-acquirer-b';

const payments = [
  cardPayment({ stableKey: 'p1', brand: 'VISA' }),
  cardPayment({ stableKey: 'p2', brand: 'VISA' }),
  cardPayment({ stableKey: 'p3', brand: 'MASTERCARD' }),
  cardPayment({ stableKey: 'p4', brand: 'AMEX' }),
  cardPayment({ stableKey: 'p5', brand: 'AMEX', currency: '840' }),
];

describe('tryRule (docs/ORCHESTRATION.md 2)', () => {
  it('counts where each payment would go first, and the payments no route holds for', () => {
    const routes = ruleRoutes.parse([
      { connector: B, priority: 1, conditions: { brands: ['VISA'] } },
      { connector: A, priority: 2, conditions: { currencies: ['604'] } },
    ]);
    const result = tryRule({ routes, payments, connectors: SANDBOX_CONNECTORS, platformDefault: false });
    expect(result).toEqual({ total: 5, byConnector: { [A]: 2, [B]: 2 }, unrouted: 1 });
    expect(Object.keys(result.byConnector)).toEqual([A, B]);
  });

  it('orders connectors by count, most first', () => {
    const routes = ruleRoutes.parse([
      { connector: B, priority: 1, conditions: { brands: ['AMEX'] } },
      { connector: A, priority: 2 },
    ]);
    const result = tryRule({ routes, payments, connectors: SANDBOX_CONNECTORS, platformDefault: false });
    expect(Object.entries(result.byConnector)).toEqual([
      [A, 3],
      [B, 2],
    ]);
  });

  it('ignores breakers: the draft is judged on the rule', () => {
    const result = tryRule({ routes: defaultRoutes('CARD'), payments, connectors: SANDBOX_CONNECTORS, platformDefault: true });
    expect(result).toEqual({ total: 5, byConnector: { [A]: 5 }, unrouted: 0 });
  });

  it('counts a payment its connectors cannot carry as unrouted', () => {
    const connectors = SANDBOX_CONNECTORS.map((facts) => ({ ...facts, enabled: false }));
    const result = tryRule({ routes: defaultRoutes('CARD'), payments, connectors, platformDefault: true });
    expect(result).toEqual({ total: 5, byConnector: {}, unrouted: 5 });
  });

  it('follows the weights over many payments, as live routing would', () => {
    const routes = ruleRoutes.parse([
      { connector: A, priority: 1, weight: 70 },
      { connector: B, priority: 1, weight: 30 },
    ]);
    const many = Array.from({ length: 1000 }, (_, n) => cardPayment({ stableKey: `m/${n}` }));
    const result = tryRule({ routes, payments: many, connectors: SANDBOX_CONNECTORS, platformDefault: false });
    expect(result.total).toBe(1000);
    expect(result.byConnector[A]! + result.byConnector[B]!).toBe(1000);
    expect(result.byConnector[A]).toBeGreaterThan(640);
    expect(result.byConnector[A]).toBeLessThan(760);
  });

  it('answers zeros for no payments', () => {
    expect(
      tryRule({ routes: defaultRoutes('CARD'), payments: [], connectors: SANDBOX_CONNECTORS, platformDefault: true }),
    ).toEqual({
      total: 0,
      byConnector: {},
      unrouted: 0,
    });
  });
});
