import { evaluateRoutes } from './evaluate-routes';
import type { ConnectorFacts, PaymentFacts, Route } from './routes';

// Trying a draft before publishing it (docs/ORCHESTRATION.md 2): "how many would go where" over
// the merchant's latest payments of the method.

export type TryRuleInput = {
  routes: readonly Route[];
  payments: readonly PaymentFacts[];
  connectors: readonly ConnectorFacts[];
  platformDefault: boolean;
};

export type TryRuleResult = {
  total: number;
  /** Payments whose first candidate is the connector, most first. */
  byConnector: Record<string, number>;
  /** Payments no route holds for (or whose connectors cannot carry them). */
  unrouted: number;
};

/**
 * Where each payment would go first under the rule. Breakers are ignored (every connector
 * allowed): a draft is judged on the rule, not on this instant's health. Each payment keeps its
 * own stable key, so the weighted split is the one those operations would get.
 */
export function tryRule(input: TryRuleInput): TryRuleResult {
  const counts = new Map<string, number>();
  let unrouted = 0;
  for (const payment of input.payments) {
    const [first] = evaluateRoutes({
      routes: input.routes,
      platformDefault: input.platformDefault,
      payment,
      connectors: input.connectors,
      breakerAllows: () => true,
    });
    if (first === undefined) unrouted += 1;
    else counts.set(first.connector, (counts.get(first.connector) ?? 0) + 1);
  }
  // Object.fromEntries defines own properties, so even a connector called `__proto__` is counted.
  const byConnector = Object.fromEntries([...counts].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0)));
  return { total: input.payments.length, byConnector, unrouted };
}
