import type { KeyObject } from 'node:crypto';
import { signBody } from './sign';
import { refusedCallbackAddress } from './address-guard';

export type DeliveryResult = {
  ok: boolean;
  /** Retrying cannot help (a refused address): the event fails at once. */
  permanent: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseSnippet: string;
};

const SNIPPET = 500;

/** One POST of a callback: signed raw body, no redirects followed, bounded by the timeout. */
export async function deliverCallback(
  url: string,
  body: string,
  options: { eventId: string; eventType: string; privateKey: KeyObject; timeoutMs: number; guardAddresses: boolean },
): Promise<DeliveryResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  if (options.guardAddresses) {
    const refused = await refusedCallbackAddress(url).catch(
      (error: unknown) => `callback host did not resolve: ${String(error)}`,
    );
    if (refused)
      return { ok: false, permanent: true, statusCode: null, latencyMs: elapsed(), error: refused, responseSnippet: '' };
  }
  try {
    const response = await fetch(url, {
      method: 'POST',
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'pay-orchestrator-callbacks/1.0',
        signature: signBody(body, options.privateKey),
        'x-event-id': options.eventId,
        'x-event-type': options.eventType,
      },
    });
    const text = await response.text().catch(() => '');
    const ok = response.status >= 200 && response.status < 300;
    return {
      ok,
      permanent: false,
      statusCode: response.status,
      latencyMs: elapsed(),
      error: ok ? null : `HTTP ${response.status}`,
      responseSnippet: text.slice(0, SNIPPET),
    };
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return {
      ok: false,
      permanent: false,
      statusCode: null,
      latencyMs: elapsed(),
      error: timedOut
        ? `no answer within ${options.timeoutMs} ms`
        : `${error instanceof Error ? error.message : String(error)}${cause}`,
      responseSnippet: '',
    };
  }
}

/** The wait before retry `attempt` (1-based): the schedule's delay with ±10 % jitter, or null when exhausted. */
export function retryDelayMs(schedule: number[], attempt: number, random = Math.random): number | null {
  const seconds = schedule[attempt - 1];
  if (seconds === undefined) return null;
  return Math.round(seconds * 1000 * (0.9 + random() * 0.2));
}
