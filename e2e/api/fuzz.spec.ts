import fc from 'fast-check';
import type { APIRequestContext } from '@playwright/test';
import { charge, tokenFor } from '../support/api';
import { contractOf, expect, test } from '../support/contract';
import { internalsIn } from '../support/leaks';
import { ORIGIN, createMerchant, merchantFootprint, settleNow } from '../support/service';
import { AUDIENCE, chargeOne } from './auth-helpers';
import { snapshot } from './charges-helpers';
import { fuzzRequests, validCharge, type FuzzRequest, type FuzzTarget } from './fuzz-requests';

// Generated bad requests on every endpoint (DESIGN.md 3, 4, 10): each must get exactly the 4xx
// and code its defect calls for, in the documented envelope (the contract fixture checks every
// answer against the OpenAPI document), with no internals, within 15 s, and must change nothing.
// A fixed seed; FUZZ_RUNS (default 1000) sets the count: `npm run test:reliability` runs 10 000.
const RUNS = Number(process.env.FUZZ_RUNS ?? 1_000);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_122);
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 6);
const ANSWER_TIMEOUT_MS = 15_000;

async function fuzzTarget(request: APIRequestContext, prefix: string): Promise<FuzzTarget> {
  // Its own credential without a practical rate limit: the fuzz tests validation, not the limiter.
  const merchant = await createMerchant(prefix, undefined, { rateLimitPerSecond: 100_000 });
  const token = await tokenFor(request, merchant);
  const settled = await chargeOne(request, token, merchant.code, 'CARD');
  expect(await settleNow(merchant.code)).toBe(1);
  const other = await createMerchant(`${prefix}O`);
  return {
    contract: await contractOf(),
    merchantCode: merchant.code,
    otherMerchantCode: other.code,
    token,
    audience: AUDIENCE,
    settled: { number: settled.number, transactionId: settled.transactionId, amount: settled.amount },
  };
}

type Outcome = { request: FuzzRequest; status: number | 'no answer'; code?: string; problems: string[] };

/** The body without errors[].field: it names the request's own (possibly hostile) property names. */
function withoutEchoedFields(text: string): string {
  try {
    const body = JSON.parse(text) as { errors?: { field?: string }[] };
    for (const error of body.errors ?? []) delete error.field;
    return JSON.stringify(body);
  } catch {
    return text;
  }
}

async function send(request: APIRequestContext, item: FuzzRequest): Promise<Outcome> {
  let response;
  try {
    response = await request.fetch(`${ORIGIN}${item.path}`, {
      method: item.method,
      headers: item.headers,
      data: item.body,
      timeout: ANSWER_TIMEOUT_MS,
      maxRedirects: 0,
    });
  } catch (error) {
    return { request: item, status: 'no answer', problems: [String(error).slice(0, 200)] };
  }
  const status = response.status();
  const text = await response.text();
  await response.dispose();
  let code: string | undefined;
  try {
    code = (JSON.parse(text) as { meta?: { status?: { code?: string } } }).meta?.status?.code;
  } catch {
    code = undefined;
  }
  const problems = [
    ...(status >= 400 && status < 500 ? [] : [`not a 4xx: ${status}`]),
    ...(status === item.expected[0] && code === item.expected[1]
      ? []
      : [`expected ${item.expected.join(' ')}, got ${status} ${code}`]),
    ...internalsIn(withoutEchoedFields(text)).map((pattern) => `internals ${pattern}`),
  ];
  return { request: item, status, code, problems };
}

async function pool<T, R>(items: T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const index = next;
        next += 1;
        results[index] = await work(items[index]!);
      }
    }),
  );
  return results;
}

function tally(outcomes: Outcome[], key: (outcome: Outcome) => string): Record<string, Record<string, number>> {
  const table: Record<string, Record<string, number>> = {};
  for (const outcome of outcomes) {
    const row = (table[key(outcome)] ??= {});
    row[String(outcome.status)] = (row[String(outcome.status)] ?? 0) + 1;
  }
  return table;
}

function describeFailure({ request, status, code, problems }: Outcome): string {
  return `${request.endpoint} [${request.category}: ${request.detail}] ${request.method} ${request.path.slice(0, 160)} -> ${status} ${code ?? ''}: ${problems.join('; ')}`;
}

test("control: the generator's valid charges are accepted, so each bad request is bad by its one defect", async ({ request }) => {
  const target = await fuzzTarget(request, 'FUZC');
  const bodies = fc.sample(validCharge(target, target.merchantCode), { seed: SEED, numRuns: 25 });
  for (const body of bodies) {
    const response = await charge(request, target.token, body);
    expect(response.status(), `${JSON.stringify(body)}\n${await response.text()}`).toBe(200);
  }
  const footprint = await merchantFootprint(target.merchantCode);
  expect(footprint.transactions).toHaveLength(bodies.length + 1);
});

test(`${RUNS} generated bad requests on every endpoint are refused with their 4xx and change nothing`, async ({
  request,
  contractViolations,
}, testInfo) => {
  test.setTimeout(120_000 + RUNS * 100);
  const target = await fuzzTarget(request, 'FUZ');
  const before = {
    footprint: await merchantFootprint(target.merchantCode),
    settled: await snapshot(target.merchantCode, target.settled.number),
  };
  const requests = fc.sample(fuzzRequests(target), { seed: SEED, numRuns: RUNS });

  const started = Date.now();
  const outcomes = await pool(requests, CONCURRENCY, (item) => send(request, item));
  const seconds = (Date.now() - started) / 1000;

  const failures = outcomes.filter((outcome) => outcome.problems.length > 0);
  const summary = {
    requests: outcomes.length,
    seed: SEED,
    seconds,
    byStatus: tally(outcomes, () => 'all').all,
    byEndpoint: tally(outcomes, (outcome) => outcome.request.endpoint),
    byCategory: tally(outcomes, (outcome) => outcome.request.category),
    failures: failures.length,
    contractViolations: contractViolations.length,
  };
  console.log(
    `[fuzz] ${JSON.stringify({ requests: summary.requests, seconds, byStatus: summary.byStatus, failures: failures.length })}`,
  );
  for (const [name, row] of [...Object.entries(summary.byEndpoint), ...Object.entries(summary.byCategory)]) {
    console.log(`[fuzz]   ${name}: ${JSON.stringify(row)}`);
  }
  await testInfo.attach('fuzz-summary.json', { body: JSON.stringify(summary, null, 2), contentType: 'application/json' });

  expect(failures.slice(0, 20).map(describeFailure), `${failures.length} of ${outcomes.length} requests failed`).toEqual([]);
  // Nothing was charged, cancelled or refunded for the fuzz merchant.
  expect(await merchantFootprint(target.merchantCode)).toEqual(before.footprint);
  expect(await snapshot(target.merchantCode, target.settled.number)).toEqual(before.settled);
});
