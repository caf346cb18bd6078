import type {
  AuthorizeResult,
  CaptureRequest,
  CaptureResult,
  ConnectorContext,
  HoldCardResult,
  InstrumentFor,
  PaymentConnector,
  PaymentInstrument,
  ProvisionTokenResult,
  StatusResult,
  TransactionReference,
  VerifyResult,
} from '@/server/payments';
import { STATE_REASONS } from '@/server/core/domain/state-reasons';
import { logInfo } from '@/server/platform/log';
import { metrics } from '@/server/platform/observability/metrics';
import { bulkheads } from '@/server/modules/processors/bulkheads';
import { breakers } from '@/server/modules/processors/breakers';

// The calls the charge path makes to a processor, each bounded by the connector's timeout
// (docs/ORCHESTRATION.md 1, 3). The connector sees the signal and should stop on it; the race
// makes sure a connector that does not still cannot hold the payment past its timeout. A
// connector that throws has failed technically: the payment is never left without an answer.
// Each call takes a place in its connector's bulkhead (modules/processors/bulkheads.ts) or, the
// bulkhead full, is never sent: the answer a processor gives when it cannot be reached.

/**
 * The connector's answer, or a `timeout` technical failure once `timeoutMs` has passed; `sent`
 * false when the bulkhead was full and the request never went out (answered as a refused
 * connection: routing moves on, spending none of the policy's attempts; a Yape code is not spent).
 */
export async function authorizeWithin(
  connector: PaymentConnector,
  instrument: PaymentInstrument,
  context: Omit<ConnectorContext, 'signal'>,
): Promise<{ answer: AuthorizeResult; sent: boolean }> {
  const release = callSlot(connector);
  if (!release) return { answer: technical('connection_refused', STATE_REASONS.unavailable), sent: false };
  const signal = AbortSignal.timeout(connector.timeoutMs);
  const timedOut = new Promise<AuthorizeResult>((resolve) =>
    signal.addEventListener('abort', () => resolve(technical('timeout', STATE_REASONS.timeout)), { once: true }),
  );
  let answer: AuthorizeResult;
  try {
    answer = await Promise.race([connector.authorize(instrument, { ...context, signal }), timedOut]);
  } catch (error) {
    logInfo('connector_failed', { connector: connector.id, flow: 'authorize', error: errorName(error) });
    answer = technical('processor_error', STATE_REASONS.processorError);
  } finally {
    release();
  }
  // The breaker hears what the processor did, never a call its bulkhead kept back.
  breakers().breakerFor(connector.id).record(breakerOutcome(answer));
  return { answer, sent: true };
}

function breakerOutcome(answer: AuthorizeResult): 'success' | 'technical_failure' | 'declined' {
  if (answer.outcome === 'technical_failure') return 'technical_failure';
  if (answer.outcome === 'declined') return answer.declineClass === 'technical' ? 'technical_failure' : 'declined';
  return 'success';
}

/** What the processor knows of an attempt after an ambiguous answer; `unknown` when it cannot say in time. */
export function statusWithin(connector: PaymentConnector, reference: TransactionReference): Promise<StatusResult> {
  return within(connector, 'status', () => connector.status(reference), { outcome: 'unknown' });
}

/** The connector's capture, or `unavailable` (in doubt: the status sync asks) once its timeout has passed. */
export function captureWithin(connector: PaymentConnector, request: CaptureRequest): Promise<CaptureResult> {
  return within(connector, 'capture', () => connector.capture(request), { outcome: 'unavailable' });
}

/** The connector's zero-amount verification of a card, or `unavailable` once its timeout has passed (nothing was saved). */
export function verifyWithin(
  connector: PaymentConnector,
  instrument: InstrumentFor<'CARD'>,
  context: Omit<ConnectorContext, 'signal'>,
): Promise<VerifyResult> {
  return within(connector, 'verify', (signal) => connector.verifyCard(instrument, { ...context, signal }), {
    outcome: 'unavailable',
  });
}

/**
 * The connector's token for a card it has just approved a customer-initiated charge of, or
 * `unavailable` once its timeout has passed: the charge's answer waits for it no longer than that.
 */
export function provisionWithin(
  connector: PaymentConnector,
  instrument: InstrumentFor<'CARD'>,
  context: Omit<ConnectorContext, 'signal'>,
): Promise<ProvisionTokenResult> {
  return within(connector, 'provision_token', (signal) => connector.provisionCardToken(instrument, { ...context, signal }), {
    outcome: 'unavailable',
  });
}

/** The connector's one-use token of a card about to wait for its challenge, or `unavailable` once its timeout has passed. */
export function holdWithin(
  connector: PaymentConnector,
  instrument: InstrumentFor<'CARD'>,
  context: Omit<ConnectorContext, 'signal'>,
): Promise<HoldCardResult> {
  return within(connector, 'hold_card', (signal) => connector.holdCard(instrument, { ...context, signal }), {
    outcome: 'unavailable',
  });
}

/** A call in a bulkhead place, raced against the connector's timeout; `fallback` when kept back, late or thrown. */
async function within<R>(
  connector: PaymentConnector,
  flow: string,
  call: (signal: AbortSignal) => Promise<R>,
  fallback: R,
): Promise<R> {
  const release = callSlot(connector);
  if (!release) return fallback;
  const signal = AbortSignal.timeout(connector.timeoutMs);
  const timedOut = new Promise<R>((resolve) => signal.addEventListener('abort', () => resolve(fallback), { once: true }));
  try {
    return await Promise.race([call(signal), timedOut]);
  } catch (error) {
    logInfo('connector_failed', { connector: connector.id, flow, error: errorName(error) });
    return fallback;
  } finally {
    release();
  }
}

/** A place in the connector's bulkhead, or null (counted in the metrics): full. */
function callSlot(connector: PaymentConnector): (() => void) | null {
  const release = bulkheads().for(connector).enter();
  if (!release) metrics().connectorCallsRefused.inc({ connector: connector.id });
  return release;
}

function technical(reason: 'timeout' | 'processor_error' | 'connection_refused', stateReason: string): AuthorizeResult {
  return { outcome: 'technical_failure', reason, stateReason, processorResponse: null, card: null, methodDetails: {} };
}

/** The error's class name only: a connector's message may quote what it was sent. */
function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
