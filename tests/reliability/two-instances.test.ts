import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chargeBody, operatorClient, token } from '../../scripts/support/api-client';
import { startService, type ServiceProcess } from '../../scripts/support/service-process';
import { startWorkerProcess, type WorkerProcess } from '../../scripts/support/worker-process';
import { startReceiver, type Receiver } from '../../e2e/support/receiver';
import { postCharge } from './charges-under-load';
import { DATABASE_URL, deployment, reliabilityPort } from './service-under-test';

// The production shape on one PostgreSQL: two service instances started together (they take
// turns at migrations, keys and demo data) and one worker of their own. Load spreads over both;
// a charge sent to both at once is stored once; a credential's rate limit holds across both.
const [A, B] = [reliabilityPort(6), reliabilityPort(7)];
const deploy = deployment(A);
const services: ServiceProcess[] = [];
let worker: WorkerProcess | undefined;
let receiver: Receiver | undefined;

afterAll(async () => {
  await worker?.stop();
  for (const service of services) await service.stop();
  await receiver?.close();
  await deploy.finish();
});

function instance(port: number): Promise<ServiceProcess> {
  return startService(
    port,
    {
      DATABASE_URL,
      SERVICE_FILE: join(deploy.dir, `service-${port}.json`),
      WORKER_IN_SERVICE: 'false',
      // Behind one balancer: one public origin (the token audience and issuer) for both.
      PUBLIC_ORIGIN: `http://localhost:${A}`,
    },
    { logFile: deploy.logFile(`service-${port}`) },
  );
}

describe.skipIf(!DATABASE_URL)('two instances and a worker on one PostgreSQL', () => {
  it('share the load, the duplicate-charge rule, the rate limits and one worker', async () => {
    services.push(...(await Promise.all([instance(A), instance(B)])));
    const [a, b] = services as [ServiceProcess, ServiceProcess];
    receiver = await startReceiver();
    worker = startWorkerProcess({ DATABASE_URL, WORKER_POLL_MS: '100' }, { logFile: deploy.logFile('worker') });
    const bearer = await token(a.origin);

    // Load over both instances (a token of one is good at the other: keys are shared).
    const bodies = Array.from({ length: 40 }, () => chargeBody('two', { callback_url: receiver!.url('/two') }));
    const answers = await Promise.all(bodies.map((body, index) => postCharge(services[index % 2]!.origin, bearer, body)));
    expect(answers.map((answer) => answer.status)).toStrictEqual(Array(40).fill(200));

    // The same charge to both instances at once, ten times over: one operation, one transaction.
    for (let round = 0; round < 10; round += 1) {
      const body = chargeBody('dup');
      const [first, second] = await Promise.all([postCharge(a.origin, bearer, body), postCharge(b.origin, bearer, body)]);
      expect([first.status, second.status].sort()).toContain(200);
      const number = (JSON.parse(body) as { merchant_operation_number: string }).merchant_operation_number;
      const stored = await operatorClient(a.origin, join(deploy.dir, `service-${A}.json`)).inspectOperation.query({
        merchantCode: 'DEMO001',
        merchantOperationNumber: number,
      });
      expect((stored.transactions as unknown[]).length).toBe(1);
      const ids = [first, second]
        .filter((answer) => answer.status === 200)
        .map((answer) => answer.body.transaction!.transaction_id);
      expect(new Set(ids).size).toBe(1);
    }

    // A credential limited to 2 requests/s (burst 4) gets at most 4 + what refills, across both.
    const operator = operatorClient(a.origin, join(deploy.dir, `service-${A}.json`));
    const limited = await operator.issueCredential.mutate({ owner: { merchantCode: 'DEMO001' }, rateLimitPerSecond: 2 });
    const limitedToken = await token(a.origin, { clientId: limited.client_id, clientSecret: limited.client_secret });
    const started = Date.now();
    const statuses = await Promise.all(
      Array.from({ length: 16 }, (_, index) =>
        postCharge(services[index % 2]!.origin, limitedToken, chargeBody('limit')).then((r) => r.status),
      ),
    );
    const allowed = 4 + Math.ceil(((Date.now() - started) / 1000) * 2);
    const ok = statuses.filter((status) => status === 200).length;
    expect(ok).toBeGreaterThanOrEqual(4);
    expect(ok).toBeLessThanOrEqual(allowed);
    expect(statuses.filter((status) => status === 429).length).toBe(16 - ok);

    // The worker (not the instances) delivers the 40 charges' callbacks: 3 events each.
    await receiver.waitFor((callbacks) => new Set(callbacks.map((callback) => callback.eventId)).size >= 120, 60_000);
    console.log(
      `[two-instances] 40 charges over 2 instances all 200; 10 duplicate pairs stored once each; ` +
        `rate limit 2/s burst 4: ${ok} of 16 allowed across both (bound ${allowed}); ${receiver.received.length} callbacks from the worker`,
    );
  });
});
