import { afterAll, describe, expect, it } from 'vitest';
import { operatorClient, token } from '../../scripts/support/api-client';
import { CLEAN, integrity } from './integrity';
import { load, storedOutcomes, type Outcome } from './charges-under-load';
import { DATABASE, deployment, reliabilityPort } from './service-under-test';

// A stop (SIGTERM: a deploy, a scale-in) in the middle of a load of POST /charges: the service
// answers every request it took before its database closes (server.js drains), so no client sees
// an error answer, every charge answered is stored whole, a charge the client could not send is
// not stored at all, and none is left claimed for the status sync. The process exits 0.
const PORT = reliabilityPort(1);
const CLIENTS = 16;
const deploy = deployment(PORT);

afterAll(() => deploy.finish());

describe(`a stop of the service during POST /charges (${DATABASE})`, () => {
  it('answers the charges under way before it exits, and leaves none claimed', async () => {
    const outcome: Outcome = { answered: [], lost: [], refused: 0 };
    let service = await deploy.start();
    const bearer = await token(service.origin);
    const stop = { now: false };
    const clients = Array.from({ length: CLIENTS }, () => load(service.origin, bearer, 'stop', outcome, stop));
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const exited = new Promise<number | null>((resolve) => service.child.once('exit', (code) => resolve(code)));
    service.child.kill('SIGTERM');
    const exitCode = await exited;
    stop.now = true;
    await Promise.all(clients);

    service = await deploy.start();
    const operator = operatorClient(service.origin, deploy.serviceFile);
    const { answered, lost } = await storedOutcomes(operator, outcome);
    await service.stop();
    const checks = await deploy.inspect(integrity);
    console.log(
      `[fault:stop] ${DATABASE}: exit ${exitCode}; ${outcome.answered.length} answered 200 (${answered.whole} stored whole); ` +
        `${outcome.lost.length} not sent once it stopped (${lost.absent} not stored, ${lost.whole} stored whole); ` +
        `${outcome.refused} error answers; database checks ${JSON.stringify(checks)}`,
    );
    expect(exitCode).toBe(0);
    expect(outcome.answered.length).toBeGreaterThan(0);
    expect(outcome.refused).toBe(0);
    expect(answered).toStrictEqual({ whole: outcome.answered.length, absent: 0, claimed: 0, declined: 0, partial: 0 });
    // A client's request after the stop meets the closed port: never stored, and never left claimed.
    expect(lost).toStrictEqual({
      whole: lost.whole,
      absent: outcome.lost.length - lost.whole,
      claimed: 0,
      declined: 0,
      partial: 0,
    });
    expect(checks).toStrictEqual(CLEAN);
  });
});
