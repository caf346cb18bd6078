import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { refusedAddress } from './address-guard';
import { HostResolutionError, type ResolveHost } from './resolve-host';
import { DELIVERY_FAILURES } from '@/server/core/domain/delivery-failures';

export type DeliveryResult = {
  ok: boolean;
  /** Retrying cannot help (a refused address): the event fails at once. */
  permanent: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseSnippet: string;
};

// A short text, enough to tell an error page from an answer; the status says the rest.
const SNIPPET = 200;

export type DeliveryOptions = {
  /**
   * The delivery's signature headers for an attempt made at `timestamp` (Unix seconds): asked
   * right before the POST, so that every retry carries its own time (signing.ts).
   */
  headersFor(timestamp: number): Record<string, string>;
  timeoutMs: number;
  guardAddresses: boolean;
  resolveHost: ResolveHost;
};

/** Connects to the addresses already resolved and checked: no second lookup, nothing to rebind. */
function fixedLookup(addresses: string[]): LookupFunction {
  const entries = addresses.map((address) => ({ address, family: isIP(address) }));
  return (_hostname, options, callback) => {
    if (options.all) (callback as (error: null, list: typeof entries) => void)(null, entries);
    else callback(null, entries[0]!.address, entries[0]!.family);
  };
}

type Answer = { status: number; text: string };

function post(
  url: URL,
  body: string,
  headers: Record<string, string>,
  addresses: string[],
  signal: AbortSignal,
): Promise<Answer> {
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: fixedLookup(addresses),
        signal,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on('data', (chunk: Buffer) => {
          if (kept < SNIPPET * 4) chunks.push(chunk);
          kept += chunk.length;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

function failure(error: string, latencyMs: number, permanent = false): DeliveryResult {
  return { ok: false, permanent, statusCode: null, latencyMs, error, responseSnippet: '' };
}

/**
 * What the console may show of an answer: a short text, and nothing of what a private destination
 * answered (a callback must not become a way to read the service's own network).
 */
export function answerSnippet(addresses: string[], text: string): string {
  return refusedAddress(addresses) === null ? text.slice(0, SNIPPET) : '';
}

/**
 * One POST of a callback: signed raw body, no redirects followed, the whole attempt (host
 * resolution included) bounded by the timeout and the resolution by its own shorter one.
 */
export async function deliverCallback(url: string, body: string, options: DeliveryOptions): Promise<DeliveryResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const signal = AbortSignal.timeout(options.timeoutMs);
  const target = new URL(url);
  let addresses: string[];
  try {
    addresses = await options.resolveHost(target.hostname);
  } catch (error) {
    const message =
      error instanceof HostResolutionError ? error.message : DELIVERY_FAILURES.unresolved(target.hostname, String(error));
    return failure(message, elapsed());
  }
  if (options.guardAddresses) {
    const refused = refusedAddress(addresses);
    if (refused) return failure(refused, elapsed(), true);
  }
  try {
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'pay-orchestrator-callbacks/1.0',
      ...options.headersFor(Math.floor(Date.now() / 1000)),
    };
    const answer = await post(target, body, headers, addresses, signal);
    const ok = answer.status >= 200 && answer.status < 300;
    return {
      ok,
      permanent: false,
      statusCode: answer.status,
      latencyMs: elapsed(),
      error: ok ? null : DELIVERY_FAILURES.http(answer.status),
      responseSnippet: answerSnippet(addresses, answer.text),
    };
  } catch (error) {
    if (signal.aborted) return failure(DELIVERY_FAILURES.noAnswer(options.timeoutMs), elapsed());
    const code = (error as { code?: string }).code;
    return failure(
      `${error instanceof Error ? error.message : String(error)}${code && !String(error).includes(code) ? ` (${code})` : ''}`,
      elapsed(),
    );
  }
}

/** The wait before retry `attempt` (1-based): the schedule's delay with ±10 % jitter, or null when exhausted. */
export function retryDelayMs(schedule: number[], attempt: number, random = Math.random): number | null {
  const seconds = schedule[attempt - 1];
  if (seconds === undefined) return null;
  return Math.round(seconds * 1000 * (0.9 + random() * 0.2));
}
