// Pure orchestration rules (docs/ORCHESTRATION.md 2-4): routing rules, their evaluation,
// validation and dry run, the retry policy and the circuit breakers. No database, no framework.
export {
  CARD_BRANDS,
  CARD_CONDITIONS,
  CARD_TYPE_VALUES,
  CURRENCY_CODES,
  conditionsHold,
  defaultRoutes,
  heldConditions,
  route,
  routeConditions,
  ruleRoutes,
  type CardType,
  type ConnectorFacts,
  type PaymentFacts,
  type SavedCardRouting,
  type Route,
  type RouteConditions,
  type RuleRoutes,
  type RuleRoutesInput,
} from './routes';
export { carriesSavedCard, connectorCarries, evaluateRoutes, type Candidate, type EvaluateRoutesInput } from './evaluate-routes';
export { fieldOf, validateRule, type RuleError, type RuleErrorCode, type RuleValidation } from './validate-rule';
export { tryRule, type TryRuleInput, type TryRuleResult } from './dry-run';
export {
  DEFAULT_RETRY_POLICY,
  nextStep,
  retryPolicyInput,
  type AttemptFailure,
  type NextStep,
  type NextStepInput,
  type RetryPolicy,
} from './retry-policy';
export {
  BREAKER_RULES,
  BreakerBoard,
  CircuitBreaker,
  type BreakerOutcome,
  type BreakerSnapshot,
  type BreakerState,
  type Clock,
} from './circuit-breaker';
export { Bulkhead, BulkheadBoard, CALL_BYTES, defaultBulkheadLimit, parseCallLimits, type BulkheadSnapshot } from './bulkhead';
