import { createHash } from 'node:crypto';
import { heldConditions, type ConnectorFacts, type PaymentFacts, type Route, type SavedCardRouting } from './routes';

// Evaluation of a rule for one payment (docs/ORCHESTRATION.md 2 and 4): the candidates, in the
// order they are tried, each with the route that chose it and why.

export type Candidate = {
  connector: string;
  /** Index of the route in the rule; null when the routes are the platform default. */
  route: number | null;
  /** Short English, kept with the transaction: `priority 1, weight 70 of 100, brand VISA`. */
  reason: string;
};

export type EvaluateRoutesInput = {
  routes: readonly Route[];
  /** The routes are `defaultRoutes(method)`, not a merchant's rule. */
  platformDefault: boolean;
  payment: PaymentFacts;
  connectors: readonly ConnectorFacts[];
  /**
   * False when the connector's breaker cuts it off. Asked once per distinct eligible connector,
   * in candidate order, so a half-open breaker counts each routed payment as one request asked.
   */
  breakerAllows: (connectorId: string) => boolean;
};

/**
 * Whether a connector can carry the payment at all: enabled, its method, its currency,
 * instalments when it has them, a capture later when it is to be captured later, and a saved
 * card when it is eligible for it.
 */
export function connectorCarries(connector: ConnectorFacts, payment: PaymentFacts): boolean {
  return (
    connector.enabled &&
    connector.methods.includes(payment.method) &&
    connector.currencies.includes(payment.currency) &&
    (payment.instalments <= 1 || connector.capabilities.instalments) &&
    (!payment.captureLater || connector.capabilities.separateCapture) &&
    (!payment.savedCard || carriesSavedCard(connector, payment.savedCard))
  );
}

/**
 * A saved card's eligibility (../shared CARD-ON-FILE.md 5): a connector holding its own token for
 * the card (that it charges without the security code, or the code came); else, for an MIT, one
 * that takes the PAN with the stored-credential flags and the initial NTI; for a one-click
 * charge, any card connector when the security code came with it (the PAN as for a new card),
 * else one that takes the stored-credential flags.
 */
export function carriesSavedCard(connector: Pick<ConnectorFacts, 'id' | 'capabilities'>, card: SavedCardRouting): boolean {
  const withCode = card.initiator === 'CUSTOMER' && card.securityCode;
  if (card.tokenAt.includes(connector.id) && (connector.capabilities.savedCards.tokenWithoutCode || withCode)) return true;
  if (connector.capabilities.savedCards.mitWithNti) return true;
  return withCode;
}

type Eligible = { index: number; route: Route; held: string[] };

const UNIFORM_SCALE = 2 ** 48;

/**
 * The weighted sampling key of one route for one payment (Efraimidis-Spirakis: ln(u) / weight,
 * larger first, gives a weighted order without replacement). `u` comes from SHA-256 of the
 * payment's stable key and the connector, so a replay of the operation gets the same order, and
 * adding or moving another route does not reshuffle this one (docs/ORCHESTRATION.md 2).
 */
function samplingKey(stableKey: string, connector: string, weight: number): number {
  const digest = createHash('sha256').update(`${stableKey}\u0000${connector}`).digest();
  const uniform = (digest.readUIntBE(0, 6) + 0.5) / UNIFORM_SCALE;
  return Math.log(uniform) / weight;
}

/** One priority's routes in a weighted order that is stable for the payment's key. */
function weightedOrder(group: readonly Eligible[], stableKey: string): Eligible[] {
  if (group.length < 2) return [...group];
  return group
    .map((eligible) => ({ eligible, key: samplingKey(stableKey, eligible.route.connector, eligible.route.weight) }))
    .sort((a, b) => b.key - a.key || a.eligible.index - b.eligible.index)
    .map(({ eligible }) => eligible);
}

function reasonFor(eligible: Eligible, groupWeight: number, platformDefault: boolean): string {
  const { priority, weight } = eligible.route;
  if (platformDefault) return `platform default, priority ${priority}`;
  return [`priority ${priority}`, `weight ${weight} of ${groupWeight}`, ...eligible.held].join(', ');
}

const TRIED_ANYWAY = 'every candidate is cut off by its breaker, tried anyway';

/**
 * The candidates for a payment, in the order to try them. A route counts when its conditions
 * hold and its connector exists, is enabled and carries the method, the currency and (over one
 * instalment) instalments. Lower priorities first; within a priority a weighted order stable
 * per operation; each connector once (its first route wins). Connectors cut off by their breaker
 * are left out, unless every candidate is: then all are returned in order, and the caller tries
 * the first anyway (docs/ORCHESTRATION.md 4). Empty when no route holds.
 */
export function evaluateRoutes(input: EvaluateRoutesInput): Candidate[] {
  const { routes, platformDefault, payment, connectors, breakerAllows } = input;
  const connectorById = new Map(connectors.map((connector) => [connector.id, connector]));

  const eligible: Eligible[] = [];
  routes.forEach((route, index) => {
    const connector = connectorById.get(route.connector);
    if (connector === undefined || !connectorCarries(connector, payment)) return;
    const held = heldConditions(route.conditions, payment);
    if (held !== null) eligible.push({ index, route, held });
  });

  const priorities = [...new Set(eligible.map(({ route }) => route.priority))].sort((a, b) => a - b);
  const taken = new Set<string>();
  const ordered: Candidate[] = [];
  for (const priority of priorities) {
    // A connector already chosen at a lower priority takes no share of this one's weight.
    const group = eligible.filter(({ route }) => route.priority === priority && !taken.has(route.connector));
    const groupWeight = group.reduce((sum, { route }) => sum + route.weight, 0);
    for (const chosen of weightedOrder(group, payment.stableKey)) {
      if (taken.has(chosen.route.connector)) continue;
      taken.add(chosen.route.connector);
      ordered.push({
        connector: chosen.route.connector,
        route: platformDefault ? null : chosen.index,
        reason: reasonFor(chosen, groupWeight, platformDefault),
      });
    }
  }

  const allowed = ordered.filter((candidate) => breakerAllows(candidate.connector));
  if (allowed.length > 0 || ordered.length === 0) return allowed;
  return ordered.map((candidate) => ({ ...candidate, reason: `${candidate.reason}; ${TRIED_ANYWAY}` }));
}
