import { writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { charge } from '../../support/api-client';
import { expect, test } from '../../support/contract';
import { consoleFootprint, merchantFootprint, platformCodesStartingWith } from '../../support/service';
import { snapshot } from '../charges-helpers';
import { everyEndpoint } from './every-endpoint';
import { validCharge } from './rest-requests';
import { pool, send, type Outcome } from './send';
import { fuzzTarget, restTarget, type FuzzTarget } from './target';

// Generated bad requests on every endpoint (docs/DESIGN.md 3, 4, 10): the REST API and token endpoint,
// the console's tRPC procedures (as every role, signed out, forged, from another site, as the
// operator), the sign-in endpoints, the payer pages' forms, the CSV export and the read-only
// documents. Each must get exactly the answer its defect calls for (answer.ts), never a
// 5xx, with no internals, within 15 s, and must change nothing. A fixed seed; FUZZ_RUNS (default
// 1000) sets the count across all endpoints: `npm run test:reliability` runs 10 000.
const RUNS = Number(process.env.FUZZ_RUNS ?? 1_000);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_122);
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 6);

/** What the fuzz's bad requests must leave as it was. */
async function footprintOf(target: FuzzTarget) {
  return {
    payments: await merchantFootprint(target.merchantCode),
    otherPayments: await merchantFootprint(target.otherMerchantCode),
    settled: await snapshot(target.merchantCode, target.settled.number),
    console: await consoleFootprint(target.merchantCode),
    unknownCodesCreated: await platformCodesStartingWith(target.unknownPrefix),
  };
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

function printSummary(outcomes: Outcome[], seconds: number, failures: number): void {
  console.log(
    `[fuzz] ${JSON.stringify({ requests: outcomes.length, seconds, byStatus: tally(outcomes, () => 'all').all, failures })}`,
  );
  const byEndpoint = Object.entries(tally(outcomes, (outcome) => outcome.request.endpoint)).sort(([a], [b]) =>
    a.localeCompare(b),
  );
  for (const [name, row] of byEndpoint) {
    const total = Object.values(row).reduce((sum, count) => sum + count, 0);
    console.log(`[fuzz]   ${String(total).padStart(5)}  ${name}: ${JSON.stringify(row)}`);
  }
}

test("control: the generator's valid charges are accepted, so each bad request is bad by its one defect", async ({ request }) => {
  const target = await restTarget(request, 'FUZC');
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
  const before = await footprintOf(target);
  const requests = fc.sample(everyEndpoint(target), { seed: SEED, numRuns: RUNS });

  const started = Date.now();
  const outcomes = await pool(requests, CONCURRENCY, (item) => send(request, target.contract, item));
  const seconds = (Date.now() - started) / 1000;

  const failures = outcomes.filter((outcome) => outcome.problems.length > 0);
  printSummary(outcomes, seconds, failures.length);
  const summary = {
    requests: outcomes.length,
    seed: SEED,
    seconds,
    byStatus: tally(outcomes, () => 'all').all,
    byEndpoint: tally(outcomes, (outcome) => outcome.request.endpoint),
    byCategory: tally(outcomes, (outcome) => `${outcome.request.endpoint} / ${outcome.request.category}`),
    failures: failures.map(describeFailure),
    contractViolations: contractViolations.length,
  };
  // Kept in the test's output folder (with every failure), and attached to the report.
  const summaryFile = testInfo.outputPath('fuzz-summary.json');
  writeFileSync(summaryFile, JSON.stringify(summary, null, 2));
  await testInfo.attach('fuzz-summary.json', { path: summaryFile, contentType: 'application/json' });

  expect(failures.slice(0, 20).map(describeFailure), `${failures.length} of ${outcomes.length} requests failed`).toEqual([]);
  // Nothing was charged, cancelled, refunded, paid, abandoned, configured or created.
  expect(await footprintOf(target)).toEqual(before);
  expect(before.unknownCodesCreated).toEqual([]);
});
