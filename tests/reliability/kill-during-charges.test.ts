import { afterAll, describe, expect, it } from 'vitest';
import { chargeBody, operatorClient, apiHeaders, token } from '../../scripts/support/api-client';
import { load, storedOutcomes, type Outcome } from './charges-under-load';
import { CLEAN, integrity } from './integrity';
import { DATABASE, deployment, FULL, killHard, reliabilityPort } from './service-under-test';

// kill -9 of the service in the middle of a load of POST /charges, then a restart on the same
// database: every charge answered 200 is stored whole (its three lifecycle entries and events);
// a charge whose answer was lost is stored whole, not at all, or claimed and left for the status
// sync (its attempt REGISTRADO with its one entry and event, due for a status check: the
// processor may have it, docs/ORCHESTRATION.md 3), or, after a later restart, declined by that
// status sync (the processor never had it); nothing is half written.
const PORT = reliabilityPort(0);
const CLIENTS = 16;
const deploy = deployment(PORT);

afterAll(() => deploy.finish());

describe(`kill -9 of the service during POST /charges (${DATABASE})`, () => {
  it('keeps every answered charge whole, and writes no charge by halves', async () => {
    const rounds = FULL ? 5 : 1;
    const outcome: Outcome = { answered: [], lost: [], refused: 0 };
    let service = await deploy.start();
    for (let round = 1; round <= rounds; round += 1) {
      const bearer = await token(service.origin);
      const stop = { now: false };
      const clients = Array.from({ length: CLIENTS }, () => load(service.origin, bearer, `kill${round}`, outcome, stop));
      await new Promise((resolve) => setTimeout(resolve, FULL ? 1500 + Math.random() * 3000 : 2000));
      await killHard(service);
      stop.now = true;
      await Promise.all(clients);
      service = await deploy.start();
    }
    const operator = operatorClient(service.origin, deploy.serviceFile);
    const { answered, lost } = await storedOutcomes(operator, outcome);
    // The restarted service takes charges again.
    const after = await fetch(`${service.origin}/api/charges`, {
      method: 'POST',
      headers: apiHeaders(await token(service.origin)),
      body: chargeBody('after'),
    });
    expect(after.status).toBe(200);
    await service.stop();
    const checks = await deploy.inspect(integrity);
    console.log(
      `[fault:charges] ${DATABASE}, ${rounds} kill(s): ${outcome.answered.length} answered 200 ` +
        `(${answered.whole} stored whole, ${answered.absent} missing, ${answered.partial} partial); ` +
        `${outcome.lost.length} lost in the kill (${lost.whole} stored whole, ${lost.absent} not stored, ` +
        `${lost.claimed} claimed for the status sync, ${lost.declined} declined by it after a restart, ${lost.partial} partial); ` +
        `${outcome.refused} refused; database checks ${JSON.stringify(checks)}`,
    );
    expect(outcome.answered.length).toBeGreaterThan(0);
    expect(outcome.lost.length).toBeGreaterThan(0);
    expect(outcome.refused).toBe(0);
    expect(answered).toStrictEqual({ whole: outcome.answered.length, absent: 0, claimed: 0, declined: 0, partial: 0 });
    expect(lost.partial).toBe(0);
    expect(checks).toStrictEqual(CLEAN);
  });
});
