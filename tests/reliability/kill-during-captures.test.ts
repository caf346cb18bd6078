import { afterAll, describe, expect, it } from 'vitest';
import { apiHeaders, chargeBody, operatorClient, token } from '../../scripts/support/api-client';
import { CLEAN, integrity } from './integrity';
import { DATABASE, deployment, FULL, killHard, reliabilityPort } from './service-under-test';

// kill -9 of the service in the middle of captures (docs/DECISIONS.md "Capture later"), then a
// restart on the same database: every capture answered 200 is CAPTURED, announced once; a
// capture whose answer was lost is settled by the worker's capture sync (it asks the processor
// first), never left CAPTURING; and what the service says was captured is what the processor
// captured, once (the integrity checks compare each transaction with the sandbox's record).
const PORT = reliabilityPort(3);
const CLIENTS = 12;
// Short timeouts, so a capture cut off by the kill is due for the sync within seconds.
const FAST = { PROCESSOR_TIMEOUT_MS: '500', SANDBOX_TIMEOUT_MS: '500', WORKER_POLL_MS: '100' };
const deploy = deployment(PORT);

afterAll(() => deploy.finish());

type Outcome = { answered: string[]; lost: string[]; other: number };

async function capture(origin: string, bearer: string, queue: string[], outcome: Outcome, stop: { now: boolean }) {
  for (let number = queue.shift(); number !== undefined && !stop.now; number = queue.shift()) {
    try {
      const response = await fetch(`${origin}/api/charges/DEMO001/${number}/capture`, {
        method: 'POST',
        headers: apiHeaders(bearer),
        body: JSON.stringify({ amount: '9000' }),
      });
      await response.arrayBuffer();
      if (response.status === 200) outcome.answered.push(number);
      else outcome.other += 1;
    } catch {
      outcome.lost.push(number);
      return;
    }
  }
}

type Capture = { status: string | null; amount: string | null; events: number };

async function captureOf(operator: ReturnType<typeof operatorClient>, number: string): Promise<Capture> {
  const stored = await operator.inspectOperation.query({ merchantCode: 'DEMO001', merchantOperationNumber: number });
  const [transaction] = stored.transactions as { captureStatus: string | null; capturedAmount: string | null }[];
  const events = (stored.events as { type: string }[]).filter((event) => event.type === 'transaction.captured').length;
  return { status: transaction!.captureStatus, amount: transaction!.capturedAmount, events };
}

describe(`kill -9 of the service during captures (${DATABASE})`, () => {
  it('keeps every answered capture, settles every capture in doubt, and never captures twice', async () => {
    const rounds = FULL ? 4 : 1;
    const outcome: Outcome = { answered: [], lost: [], other: 0 };
    const authorized: string[] = [];
    let service = await deploy.start(FAST);
    for (let round = 1; round <= rounds; round += 1) {
      const bearer = await token(service.origin);
      const numbers: string[] = [];
      for (let index = 0; index < 80; index += 1) {
        const body = chargeBody(`capture${round}`, { capture: 'manual' });
        const response = await fetch(`${service.origin}/api/charges`, { method: 'POST', headers: apiHeaders(bearer), body });
        expect(response.status).toBe(200);
        numbers.push((JSON.parse(body) as { merchant_operation_number: string }).merchant_operation_number);
      }
      authorized.push(...numbers);
      const queue = [...numbers];
      const stop = { now: false };
      const clients = Array.from({ length: CLIENTS }, () => capture(service.origin, bearer, queue, outcome, stop));
      // Killed once some captures have their answer and others are in flight.
      const answeredBefore = outcome.answered.length;
      const until = Date.now() + 10_000;
      while (outcome.answered.length < answeredBefore + 10 + Math.floor(Math.random() * 20) && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await killHard(service);
      stop.now = true;
      await Promise.all(clients);
      service = await deploy.start(FAST);
    }
    const operator = operatorClient(service.origin, deploy.serviceFile);
    // The capture sync settles what the kill left CAPTURING, once its claim's hold has passed.
    const deadline = Date.now() + 60_000;
    let captures = new Map<string, Capture>();
    for (;;) {
      captures = new Map(
        await Promise.all(authorized.map(async (number) => [number, await captureOf(operator, number)] as const)),
      );
      if ([...captures.values()].every((each) => each.status !== 'CAPTURING') || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const tally = { CAPTURED: 0, UNCAPTURED: 0, CAPTURING: 0 } as Record<string, number>;
    for (const each of captures.values()) tally[each.status ?? 'none'] = (tally[each.status ?? 'none'] ?? 0) + 1;
    // The restarted service captures again.
    const left = authorized.find((number) => captures.get(number)!.status === 'UNCAPTURED');
    if (left) {
      const again = await fetch(`${service.origin}/api/charges/DEMO001/${left}/capture`, {
        method: 'POST',
        headers: apiHeaders(await token(service.origin)),
      });
      expect(again.status).toBe(200);
    }
    await service.stop();
    const checks = await deploy.inspect(integrity);
    console.log(
      `[fault:captures] ${DATABASE}, ${rounds} kill(s): ${authorized.length} authorized, ${outcome.answered.length} captures answered 200, ` +
        `${outcome.lost.length} lost in the kill, ${outcome.other} refused; after the restart ${JSON.stringify(tally)}; ` +
        `database checks ${JSON.stringify(checks)}`,
    );
    expect(outcome.answered.length).toBeGreaterThan(0);
    expect(outcome.other).toBe(0);
    for (const number of outcome.answered)
      expect(captures.get(number)).toStrictEqual({ status: 'CAPTURED', amount: '9000', events: 1 });
    for (const number of outcome.lost) expect(['CAPTURED', 'UNCAPTURED']).toContain(captures.get(number)!.status);
    expect(tally.CAPTURING).toBe(0);
    for (const each of captures.values()) expect(each.events).toBe(each.status === 'CAPTURED' ? 1 : 0);
    expect(checks).toStrictEqual(CLEAN);
  });
});
