import type {
  AuthorizeResult,
  CaptureRequest,
  CaptureResult,
  ConnectorContext,
  PaymentConnector,
  PaymentInstrument,
  StatusResult,
  TransactionReference,
} from '@/server/payments';
import { STATE_REASONS } from '@/server/core/domain/state-reasons';
import { logInfo } from '@/server/platform/log';

// The calls the charge path makes to a processor, each bounded by the connector's timeout
// (docs/ORCHESTRATION.md 1, 3). The connector sees the signal and should stop on it; the race
// makes sure a connector that does not still cannot hold the payment past its timeout. A
// connector that throws has failed technically: the payment is never left without an answer.

/** The connector's answer, or a `timeout` technical failure once `timeoutMs` has passed. */
export async function authorizeWithin(
  connector: PaymentConnector,
  instrument: PaymentInstrument,
  context: Omit<ConnectorContext, 'signal'>,
): Promise<AuthorizeResult> {
  const signal = AbortSignal.timeout(connector.timeoutMs);
  const timedOut = new Promise<AuthorizeResult>((resolve) =>
    signal.addEventListener('abort', () => resolve(technical('timeout', STATE_REASONS.timeout)), { once: true }),
  );
  try {
    return await Promise.race([connector.authorize(instrument, { ...context, signal }), timedOut]);
  } catch (error) {
    logInfo('connector_failed', { connector: connector.id, flow: 'authorize', error: errorName(error) });
    return technical('processor_error', STATE_REASONS.processorError);
  }
}

/** What the processor knows of an attempt after an ambiguous answer; `unknown` when it cannot say in time. */
export async function statusWithin(connector: PaymentConnector, reference: TransactionReference): Promise<StatusResult> {
  const signal = AbortSignal.timeout(connector.timeoutMs);
  const timedOut = new Promise<StatusResult>((resolve) =>
    signal.addEventListener('abort', () => resolve({ outcome: 'unknown' }), { once: true }),
  );
  try {
    return await Promise.race([connector.status(reference), timedOut]);
  } catch (error) {
    logInfo('connector_failed', { connector: connector.id, flow: 'status', error: errorName(error) });
    return { outcome: 'unknown' };
  }
}

/** The connector's capture, or `unavailable` (in doubt: the status sync asks) once its timeout has passed. */
export async function captureWithin(connector: PaymentConnector, request: CaptureRequest): Promise<CaptureResult> {
  const signal = AbortSignal.timeout(connector.timeoutMs);
  const timedOut = new Promise<CaptureResult>((resolve) =>
    signal.addEventListener('abort', () => resolve({ outcome: 'unavailable' }), { once: true }),
  );
  try {
    return await Promise.race([connector.capture(request), timedOut]);
  } catch (error) {
    logInfo('connector_failed', { connector: connector.id, flow: 'capture', error: errorName(error) });
    return { outcome: 'unavailable' };
  }
}

function technical(reason: 'timeout' | 'processor_error', stateReason: string): AuthorizeResult {
  return { outcome: 'technical_failure', reason, stateReason, processorResponse: null, card: null, methodDetails: {} };
}

/** The error's class name only: a connector's message may quote what it was sent. */
function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
