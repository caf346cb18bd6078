import { afterAll, describe, expect, it } from 'vitest';
import { apiHeaders, chargeBody, operatorConsole, token, type ChargeExtra } from '../../scripts/support/api-client';
import { LIFTED_LIMITS } from '../../scripts/bench/targets';
import { CLEAN, integrity } from './integrity';
import { DATABASE, deployment, FULL, reliabilityPort, restoreOrchestrationDefaults } from './service-under-test';

// Processor faults against the built service over HTTP (docs/ORCHESTRATION.md 1, 3 and 4), on a
// deployment of its own since a connector's mode is shared by everything on the service:
// - an outage of acquirer A sends every charge to B, after five failovers with one attempt;
// - A `slow` gives one approval at A (found by the status inquiry) and no second attempt;
// - Yape `slow` is not retried elsewhere, Yape's outage is;
// - A `flaky` under concurrent load never leaves an operation with two approvals, with failover
//   on (every payment approved) and off (about two thirds).
const PORT = reliabilityPort(5);
const deploy = deployment(PORT);
/** Short enough for the `slow` runs, long enough for a loaded 2-core machine to answer within it. */
const SERVICE = { ...LIFTED_LIMITS, SANDBOX_TIMEOUT_MS: '1000' };
/**
 * The flaky runs measure failover and the breaker, not timeouts: up to 1,000 charges at once keep
 * a 2-core machine's answers past 1 s (a timeout is never failed over, so it would end in doubt),
 * and a connector's bulkhead is sized from its timeout (100 calls at 1 s, 1,000 at 10 s).
 */
const FLAKY_SERVICE = { ...SERVICE, SANDBOX_TIMEOUT_MS: '10000' };
/** How long an instance may keep a mode it read (SETTINGS_CACHE_MS) plus a margin. */
const MODE_SETTLES_MS = 1_200;

afterAll(async () => {
  await deploy.finish();
  await restoreOrchestrationDefaults(deploy);
});

type Answer = { state: string; processor: string; attempt: number; transactions: number };

async function charge(origin: string, bearer: string, run: string, extra: ChargeExtra = {}): Promise<Answer> {
  const body = chargeBody(run, extra);
  const response = await fetch(`${origin}/api/charges`, { method: 'POST', headers: apiHeaders(bearer), body });
  expect(response.status).toBe(200);
  const { transaction } = (await response.json()) as {
    transaction: { state: string; transaction_id: string; additional_fields: { processor: string; attempt: number } };
  };
  const number = (JSON.parse(body) as { merchant_operation_number: string }).merchant_operation_number;
  const listed = await fetch(`${origin}/api/charges/DEMO001/${encodeURIComponent(number)}/${transaction.transaction_id}`, {
    headers: apiHeaders(bearer),
  });
  expect(listed.status).toBe(200);
  const transactions = ((await listed.json()) as { operation: { transactions: unknown[] } }).operation.transactions.length;
  return { state: transaction.state, ...transaction.additional_fields, transactions };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(`acquirer faults over HTTP (${DATABASE})`, () => {
  it('fails over during an outage and opens the breaker; slow is settled by the status inquiry; Yape retries only before its code', async () => {
    let service = await deploy.start(SERVICE);
    let operator = operatorConsole(service.origin, deploy.serviceFile);
    const bearer = await token(service.origin);
    const setMode = async (connector: string, mode: 'normal' | 'outage' | 'slow' | 'flaky') => {
      await operator.processors.setMode.mutate({ connector, mode });
      await wait(MODE_SETTLES_MS);
    };

    // Outage: each charge fails over to B until five technical failures in a row open A's
    // breaker (ORCHESTRATION.md 4); from then on B is the only candidate: one attempt.
    await setMode('sandbox-acquirer-a', 'outage');
    const outageAt = Date.now();
    const outage: Answer[] = [];
    let openedAfterMs = -1;
    for (let index = 0; index < 10; index += 1) {
      const answer = await charge(service.origin, bearer, 'outage');
      if (openedAfterMs < 0 && answer.attempt === 1) openedAfterMs = Date.now() - outageAt;
      outage.push(answer);
    }
    expect(outage.map(({ state, processor }) => `${state} ${processor}`)).toEqual(
      Array(10).fill('AUTORIZADO sandbox-acquirer-b'),
    );
    expect(outage.map((answer) => answer.attempt)).toEqual([2, 2, 2, 2, 2, 1, 1, 1, 1, 1]);
    expect(outage.map((answer) => answer.transactions)).toEqual([2, 2, 2, 2, 2, 1, 1, 1, 1, 1]);
    const connectors = await operator.processors.connectors.query();
    expect(connectors.find((connector) => connector.id === 'sandbox-acquirer-a')).toMatchObject({
      mode: 'outage',
      breaker: 'open',
    });

    // Breakers are each process's own: a fresh process starts with A's closed.
    await setMode('sandbox-acquirer-a', 'slow');
    await service.stop();
    service = await deploy.start(SERVICE);
    operator = operatorConsole(service.origin, deploy.serviceFile);

    // Slow: A decides, answers after the timeout; the status inquiry finds its approval.
    const slow = [];
    for (let index = 0; index < 3; index += 1) slow.push(await charge(service.origin, bearer, 'slow'));
    expect(slow).toEqual(Array(3).fill({ state: 'AUTORIZADO', processor: 'sandbox-acquirer-a', attempt: 1, transactions: 1 }));
    await setMode('sandbox-acquirer-a', 'normal');

    // Yape: a timeout is never followed by another rail (the payer's code may have been used)...
    await setMode('sandbox-yape', 'slow');
    const yapeSlow = await charge(service.origin, bearer, 'yape-slow', { yape: true });
    expect(yapeSlow).toEqual({ state: 'AUTORIZADO', processor: 'sandbox-yape', attempt: 1, transactions: 1 });
    // ...a refused connection is (the code never reached the processor).
    await setMode('sandbox-yape', 'outage');
    const yapeOutage = await charge(service.origin, bearer, 'yape-outage', { yape: true });
    expect(yapeOutage).toEqual({ state: 'AUTORIZADO', processor: 'sandbox-yape-b', attempt: 2, transactions: 2 });
    await setMode('sandbox-yape', 'normal');

    // Flaky: a third of A's payments fail technically, concurrently, with failover on then off.
    await setMode('sandbox-acquirer-a', 'flaky');
    await service.stop();
    service = await deploy.start(FLAKY_SERVICE);
    operator = operatorConsole(service.origin, deploy.serviceFile);
    const load = FULL ? 1000 : 200;
    const approvedShare = async (run: string) => {
      const answers = await Promise.all(Array.from({ length: load }, () => charge(service.origin, bearer, run)));
      return answers.filter((answer) => answer.state === 'AUTORIZADO').length / load;
    };
    const on = await approvedShare('flaky-on');
    await operator.routing.updatePolicy.mutate({
      merchantCode: 'DEMO001',
      method: 'CARD',
      maxAttempts: 1,
      budgetMs: 10_000,
      retrySoftDeclines: false,
    });
    // Again on a fresh process: A's breaker may have opened during the first run.
    await service.stop();
    service = await deploy.start(FLAKY_SERVICE);
    const off = await approvedShare('flaky-off');
    await service.stop();

    const checks = await deploy.inspect(integrity);
    console.log(
      `[fault:acquirers] ${DATABASE}: outage of sandbox-acquirer-a: breaker open after ${outage.findIndex((a) => a.attempt === 1)} ` +
        `charges, ${openedAfterMs} ms after the first; flaky sandbox-acquirer-a under ${load} concurrent charges: ` +
        `${(on * 100).toFixed(1)} % approved with failover, ${(off * 100).toFixed(1)} % with one attempt; ` +
        `database checks ${JSON.stringify(checks)}`,
    );
    expect(on).toBe(1);
    // A third of A's payments fail while its breaker is closed; once half of the last 20 fail
    // (or five in a row) it opens and the rest of the load goes to B, approved: at least the
    // five failures that opened it stay declined.
    expect(off).toBeGreaterThan(0.5);
    expect(off).toBeLessThan(1);
    expect(checks).toStrictEqual(CLEAN);
  });
});
