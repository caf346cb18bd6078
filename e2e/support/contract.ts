import { test as base, expect, type APIRequestContext, type APIResponse } from '@playwright/test';
import { Contract, describeViolation, type Exchange, type OpenApiDocument } from './openapi-contract';
import { ASYNC_ORIGIN, ORIGIN } from './service';

// The API suites' `test`: its `request` fixture checks every answer of the services against the
// OpenAPI document they serve, and fails the test that got an answer the document does not
// describe (method, path, status and the schema errors in the message).

/**
 * Under {base_url} but not the integrator interface: operations endpoints, console and operator
 * transport, and where processors send their notifications (docs/processors/README.md).
 */
const OUT_OF_SCOPE = [/^\/api\/health$/, /^\/api\/metrics$/, /^\/api\/trpc\//, /^\/api\/auth\//, /^\/api\/notifications\//];
const SERVICE_ORIGINS = new Set([ORIGIN, ASYNC_ORIGIN]);

const contracts = new Map<string, Promise<Contract>>();

/** The contract of the service at `origin`, from its own /api/openapi.json (loaded once per worker). */
export function contractOf(origin = ORIGIN): Promise<Contract> {
  let contract = contracts.get(origin);
  if (!contract) {
    contract = (async () => {
      const response = await fetch(`${origin}/api/openapi.json`);
      if (!response.ok) throw new Error(`${origin}/api/openapi.json: HTTP ${response.status}`);
      return new Contract((await response.json()) as OpenApiDocument, OUT_OF_SCOPE);
    })();
    contracts.set(origin, contract);
  }
  return contract;
}

/** The exchange of a Playwright answer (its final URL, after redirects). */
export async function exchangeOf(method: string, response: APIResponse): Promise<Exchange> {
  return { method, url: response.url(), status: response.status(), headers: response.headers(), body: await response.body() };
}

const CALLS = { get: 'GET', post: 'POST', put: 'PUT', patch: 'PATCH', delete: 'DELETE', head: 'HEAD', fetch: null } as const;
type Call = keyof typeof CALLS;
type FetchTarget = Parameters<APIRequestContext['fetch']>[0];
type FetchOptions = Parameters<APIRequestContext['fetch']>[1];

function methodOf(call: Call, target: FetchTarget, options: FetchOptions): string {
  const fixed = CALLS[call];
  if (fixed) return fixed;
  return (options?.method ?? (typeof target === 'string' ? 'GET' : target.method())).toUpperCase();
}

/** `inner` with every answer passed to `check` before the caller sees it. */
export function checkedRequest(
  inner: APIRequestContext,
  check: (method: string, response: APIResponse) => Promise<void>,
): APIRequestContext {
  return new Proxy(inner, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      if (typeof property !== 'string' || !(property in CALLS)) return (value as (...args: unknown[]) => unknown).bind(target);
      const call = value as (url: FetchTarget, options?: FetchOptions) => Promise<APIResponse>;
      return async (url: FetchTarget, options?: FetchOptions) => {
        const response = await call.call(target, url, options);
        await check(methodOf(property as Call, url, options), response);
        return response;
      };
    },
  });
}

export const test = base.extend<{ contractViolations: string[] }>({
  contractViolations: async ({}, use) => {
    await use([]);
  },
  request: async ({ request, baseURL, contractViolations }, use) => {
    const contract = await contractOf(baseURL && SERVICE_ORIGINS.has(new URL(baseURL).origin) ? new URL(baseURL).origin : ORIGIN);
    await use(
      checkedRequest(request, async (method, response) => {
        if (!SERVICE_ORIGINS.has(new URL(response.url()).origin)) return;
        const exchange = await exchangeOf(method, response);
        const problems = contract.check(exchange);
        if (problems.length > 0) contractViolations.push(describeViolation(exchange, problems));
      }),
    );
    if (contractViolations.length > 0) {
      throw new Error(`${contractViolations.length} answer(s) break the OpenAPI document:\n${contractViolations.join('\n')}`);
    }
  },
});

export { expect };
