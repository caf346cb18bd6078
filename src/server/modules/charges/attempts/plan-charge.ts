import type { Db } from '@/server/platform/db/client';
import { AppError } from '@/server/core/domain/errors';
import { defaultRoutes, evaluateRoutes, type Candidate, type PaymentFacts, type RetryPolicy } from '@/server/core/orchestration';
import type { PaymentConnector } from '@/server/payments';
import { connectorById, merchantConnectorFacts } from '@/server/modules/processors/connectors';
import type { AttemptRoute, ChargeBase } from './attempt-rows';
import { breakers } from '@/server/modules/processors/breakers';
import { bulkheads } from '@/server/modules/processors/bulkheads';
import { routingConfigOf, type RoutingConfig } from '@/server/modules/routing/routing-config';
import { authenticateFirst, mayStepUp } from '@/server/core/three-ds/decision';
import { savedCardRouting } from './stored-credential';

/** What routing decided for one charge: the candidates in order and the policy that bounds them. */
export type ChargePlan = {
  candidates: Candidate[];
  ruleVersion: number | null;
  policy: RetryPolicy;
  /** The merchant's 3-D Secure setting lets a `sca_required` decline step up. */
  stepUpAllowed: boolean;
  /** The candidates' connectors that authorize with a 3-D Secure result (`capabilities.threeDsResult`). */
  threeDsCapable: ReadonlySet<string>;
  /** The candidates' connectors that authorize a typed card without its security code (`capabilities.cardWithoutCode`). */
  cardWithoutCode: ReadonlySet<string>;
  /** The merchant's 3-D Secure setting for the payment's method. */
  threeDs: RoutingConfig['threeDs'];
  /** The candidates' connectors that release an uncaptured authorization on their own, after so many days. */
  captureHoldDays: ReadonlyMap<string, number>;
  firstConnector: PaymentConnector;
};

/** Where a candidate's attempt goes, and why, as its row keeps it. */
export function attemptRoute(plan: ChargePlan, candidate: Candidate): AttemptRoute {
  const holdDays = plan.captureHoldDays.get(candidate.connector);
  return {
    connectorId: candidate.connector,
    routing: { rule_version: plan.ruleVersion, route: candidate.route, reason: candidate.reason },
    ...(holdDays === undefined ? {} : { holdDays }),
  };
}

// Routing for one charge (docs/ORCHESTRATION.md 2): the merchant's published rule for the
// method, else the platform default. A rule none of whose routes holds for this payment falls
// back to the platform default too, and the attempt says so (`transactions.routing.reason`):
// a payment is never lost to a rule that does not match, and nobody is left guessing why.
export async function planCharge(prisma: Db, base: ChargeBase): Promise<ChargePlan> {
  const method = base.body.payment_method.method_name;
  const config = await routingConfigOf(prisma, base.merchant.id, method);
  const connectors = await merchantConnectorFacts(prisma, config.accounts);
  const payment = paymentFacts(base);
  const board = breakers();
  const room = bulkheads();
  // A full bulkhead is skipped as an open breaker is (docs/ORCHESTRATION.md 4); asked first, so a
  // half-open breaker's trial is not spent on a connector that would not be called.
  const breakerAllows = (id: string) => room.hasRoom(id) && board.breakerFor(id).allowRequest();

  let candidates: Candidate[] = config.rule
    ? evaluateRoutes({ routes: config.rule.routes, platformDefault: false, payment, connectors, breakerAllows })
    : [];
  if (candidates.length === 0) {
    const why = config.rule ? `no route of rule v${config.rule.version} holds: platform default, ` : 'platform default, ';
    candidates = evaluateRoutes({ routes: defaultRoutes(method), platformDefault: true, payment, connectors, breakerAllows }).map(
      (candidate) => ({ ...candidate, reason: `${why}${candidate.reason}` }),
    );
  }
  const threeDsCapable = new Set(connectors.filter((each) => each.capabilities.threeDsResult).map((each) => each.id));
  // A card authenticated before routing (ALWAYS, OVER) goes where the result is used, when any candidate takes it.
  // A merchant-initiated charge is never authenticated: no processor is preferred for it.
  const merchantInitiated = base.storedCredential?.initiator === 'MERCHANT';
  const savesCard = base.storedCredential?.usage === 'FIRST';
  if (method === 'CARD' && !merchantInitiated && authenticateFirst(config.threeDs, payment.amount, { savesCard })) {
    const capable = candidates.filter((candidate) => threeDsCapable.has(candidate.connector));
    if (capable.length > 0) candidates = capable;
  }
  const first = candidates[0] && (await connectorById(prisma, candidates[0].connector));
  if (!first) {
    const why = payment.captureLater ? ' to be captured later: none of its processors captures separately' : ' now';
    throw new AppError('METHOD_RULE', `no processor can carry this ${method} payment${why}`);
  }
  return {
    candidates,
    ruleVersion: config.rule?.version ?? null,
    policy: config.policy,
    stepUpAllowed: method === 'CARD' && !merchantInitiated && mayStepUp(config.threeDs),
    threeDsCapable,
    cardWithoutCode: new Set(connectors.filter((each) => each.capabilities.cardWithoutCode).map((each) => each.id)),
    threeDs: config.threeDs,
    captureHoldDays: new Map(
      connectors.flatMap(({ id, capabilities }) =>
        capabilities.captureHoldDays === null ? [] : [[id, capabilities.captureHoldDays] as const],
      ),
    ),
    firstConnector: first,
  };
}

function paymentFacts(base: ChargeBase): PaymentFacts {
  const { body, card, merchant } = base;
  const method = body.payment_method;
  const installments = method.method_name === 'CARD' ? method.method_details.installments?.number : undefined;
  return {
    method: method.method_name,
    amount: BigInt(body.payment_details.amount),
    currency: body.payment_details.currency,
    brand: card?.brand ?? null,
    bin: card?.bin ?? null,
    cardType: card?.card_type ?? null,
    cardCountry: card?.card_country ?? null,
    instalments: Number(installments ?? '1'),
    captureLater: base.captureMode === 'MANUAL',
    savedCard: savedCardRouting(base.storedCredential),
    // Weighted routes split by operation, stable across replays (docs/ORCHESTRATION.md 2).
    stableKey: `${merchant.code}:${body.merchant_operation_number}`,
  };
}
