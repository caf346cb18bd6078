import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { operatorClient, token } from '../../scripts/support/api-client';
import { connectionRefused, listeningDescriptors, onNewConnection } from '../support/listening-socket';
import { CLEAN, integrity } from './integrity';
import { lateCharges, load, storedOutcomes, type Outcome } from './charges-under-load';
import { DATABASE, deployment, reliabilityPort } from './service-under-test';

// A stop (SIGTERM: a deploy, a scale-in) in the middle of a load of POST /charges: the service
// answers every request it took before its database closes (server.js drains), so no client sees
// an error answer, every charge answered is stored whole, a charge the client could not send is
// not stored at all, and none is left claimed for the status sync. The process exits 0.
const PORT = reliabilityPort(1);
const CLIENTS = 16;
const deploy = deployment(PORT);

afterAll(() => deploy.finish());

/** The service's log, line by line (empty before its first start). */
const logLines = () => (existsSync(deploy.logFile()) ? readFileSync(deploy.logFile(), 'utf8').split('\n') : []);

/** The log's lines from the `from`th on that say a request failed. */
const failedRequests = (from: number) =>
  logLines()
    .slice(from)
    .filter((line) => line.includes('request failed') || line.includes('answer failed'));

/** Stops the service with SIGTERM and resolves with its exit code. */
function sigterm(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  return exited;
}

/** Every charge the clients answered and lost, read back from a restarted service, and the database checks. */
async function readBack(outcome: Outcome) {
  const service = await deploy.start();
  const stored = await storedOutcomes(operatorClient(service.origin, deploy.serviceFile), outcome);
  await service.stop();
  return { ...stored, checks: await deploy.inspect(integrity) };
}

describe(`a stop of the service during POST /charges (${DATABASE})`, () => {
  it('answers the charges under way before it exits, and leaves none claimed', async () => {
    const outcome: Outcome = { answered: [], lost: [], refused: 0 };
    const logFrom = logLines().length;
    const service = await deploy.start();
    const bearer = await token(service.origin);
    const stop = { now: false };
    const clients = Array.from({ length: CLIENTS }, () => load(service.origin, bearer, 'stop', outcome, stop));
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const exitCode = await sigterm(service.child);
    stop.now = true;
    await Promise.all(clients);
    const failed = failedRequests(logFrom);

    const { answered, lost, checks } = await readBack(outcome);
    console.log(
      `[fault:stop] ${DATABASE}: exit ${exitCode}; ${outcome.answered.length} answered 200 (${answered.whole} stored whole); ` +
        `${outcome.lost.length} not sent once it stopped (${lost.absent} not stored, ${lost.whole} stored whole); ` +
        `${outcome.refused} error answers; ${failed.length} requests failed in its log; database checks ${JSON.stringify(checks)}`,
    );
    expect(exitCode).toBe(0);
    expect(outcome.answered.length).toBeGreaterThan(0);
    expect(outcome.refused).toBe(0);
    expect(failed).toStrictEqual([]);
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

  // server.js copies the listening socket (LISTEN_DESCRIPTORS) so that a burst of new connections
  // is accepted several per turn of the event loop: each copy hands its connections to the one
  // HTTP server.
  it('holds 16 descriptors of its port and answers a burst of new connections', async () => {
    const service = await deploy.start();
    const descriptors = listeningDescriptors(service.child.pid!, PORT);
    const answers = await Promise.all(Array.from({ length: 64 }, () => onNewConnection(PORT, '/api/health')));
    await service.stop();
    expect(descriptors).toBe(16);
    expect(answers).toStrictEqual(Array.from({ length: 64 }, () => 'HTTP/1.1 200 OK'));
  });

  // A client that hangs up closes its connection, and once the last one is closed the HTTP server
  // has drained. The charges those clients left with their processor still run: the database must
  // stay open until they are written, or each would stop between its claim and its outcome.
  it('writes the charges whose clients hung up at the stop before its database closes', async () => {
    const outcome: Outcome = { answered: [], lost: [], refused: 0 };
    const logFrom = logLines().length;
    const service = await deploy.start({ SANDBOX_TIMEOUT_MS: '1500' });
    const bearer = await token(service.origin);
    const hangUp = new AbortController();
    // One charge per client, each with acquirer A until its timeout when the stop comes.
    const clients = lateCharges(service.origin, bearer, 'hang-up', outcome, { clients: CLIENTS, signal: hangUp.signal });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const exited = sigterm(service.child);
    hangUp.abort();
    // The port closes at the stop, every copy of its socket with it, while the charges are still
    // being written: a new connection is refused before the process exits.
    let refusedWhileDraining = false;
    while (!refusedWhileDraining && service.child.exitCode === null) {
      refusedWhileDraining = (await connectionRefused(PORT)) && service.child.exitCode === null;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const exitCode = await exited;
    await Promise.all(clients);
    const failed = failedRequests(logFrom);

    const { answered, lost, checks } = await readBack(outcome);
    console.log(
      `[fault:stop, clients hang up] ${DATABASE}: exit ${exitCode}; ${outcome.lost.length} hung up ` +
        `(${JSON.stringify(lost)}); ${outcome.answered.length} answered; ${failed.length} requests failed in its log; ` +
        `database checks ${JSON.stringify(checks)}`,
    );
    expect(exitCode).toBe(0);
    expect(refusedWhileDraining).toBe(true);
    expect(outcome.answered).toStrictEqual([]);
    expect(answered.whole).toBe(0);
    expect(failed).toStrictEqual([]);
    // Approved at acquirer A after its timeout, its status inquiry said so: each written whole.
    expect(lost).toStrictEqual({ whole: CLIENTS, absent: 0, claimed: 0, declined: 0, partial: 0 });
    expect(checks).toStrictEqual(CLEAN);
  });

  // A charge that outlasts the drain's grace (DRAIN_GRACE_MS) is cut: its connection closed, the
  // database closed, the process exits. It is left claimed, for the status sync to settle as
  // after a crash (the kill -9 suites): never half written.
  it('cuts the charges still under way once its grace has passed, and leaves them claimed', async () => {
    const outcome: Outcome = { answered: [], lost: [], refused: 0 };
    const service = await deploy.start({ SANDBOX_TIMEOUT_MS: '5000', DRAIN_GRACE_MS: '1000' });
    const bearer = await token(service.origin);
    const clients = lateCharges(service.origin, bearer, 'cut', outcome, { clients: CLIENTS });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const stoppedAt = performance.now();
    const exitCode = await sigterm(service.child);
    const stopMs = performance.now() - stoppedAt;
    await Promise.all(clients);

    const { answered, lost, checks } = await readBack(outcome);
    console.log(
      `[fault:stop, cut after its grace] ${DATABASE}: exit ${exitCode} after ${Math.round(stopMs)} ms; ` +
        `${outcome.lost.length} cut (${JSON.stringify(lost)}); ${outcome.answered.length} answered; database checks ${JSON.stringify(checks)}`,
    );
    expect(exitCode).toBe(0);
    // Past the 1 s grace, well before the charges' 5 s timeout would have ended them.
    expect(stopMs).toBeGreaterThanOrEqual(1000);
    expect(stopMs).toBeLessThan(4000);
    expect(outcome.answered).toStrictEqual([]);
    expect(answered.whole).toBe(0);
    expect(lost).toStrictEqual({ whole: 0, absent: 0, claimed: CLIENTS, declined: 0, partial: 0 });
    expect(checks).toStrictEqual(CLEAN);
  });
});
