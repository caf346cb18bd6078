import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chargeBody, operatorClient, token } from '../../scripts/support/api-client';
import { startService, type ServiceProcess } from '../../scripts/support/service-process';
import { lateCharges, postCharge, storedOutcomes, type Outcome } from './charges-under-load';
import { CLEAN, integrity } from './integrity';
import { deployment, killHard, reliabilityPort } from './service-under-test';

// A rolling release on one PostgreSQL (docs/design/charge-written-once.md §8.1): an instance of
// release R1, which reads claims but still writes each attempt in flight as a REGISTRADO row,
// serves beside an instance of this release, which writes claims. The same charge sent to both at
// once is one operation with one transaction; the R1 instance killed with charges in flight leaves
// REGISTRADO rows, which this release's status sync settles; nothing is approved twice. Run by
// `npm run test:reliability` on a database of its own (ROLLOUT_DATABASE_URL), which R1 migrates
// from empty and this release then migrates past R1, as a deploy does.
const ROLLOUT_DATABASE_URL = process.env.ROLLOUT_DATABASE_URL ?? '';
/** R1's last commit: the claim decided under the operation's lock, every reader and the sync knowing claims, rows still written. */
const PREVIOUS_RELEASE = 'e923cce';
const CLIENTS = 16;
const [OLD, NEW] = [reliabilityPort(10), reliabilityPort(11)];
const deploy = deployment(OLD, ROLLOUT_DATABASE_URL);
const services: ServiceProcess[] = [];

afterAll(async () => {
  for (const service of services) await service.stop();
  await deploy.finish();
});

/**
 * R1 built in a worktree of this repository beside the temporary directory's other files, kept
 * for the next run. Its package-lock.json is this checkout's, so its dependencies are this
 * checkout's, hard-linked as in the deploy rehearsal's fast pass.
 */
function previousRelease(): string {
  const dir = join(tmpdir(), `pay-release-${PREVIOUS_RELEASE}`);
  if (existsSync(join(dir, '.next', 'BUILD_ID'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  execFileSync('git', ['worktree', 'prune']);
  execFileSync('git', ['worktree', 'add', '--detach', dir, PREVIOUS_RELEASE]);
  execFileSync('git', ['diff', '--quiet', PREVIOUS_RELEASE, '--', 'package-lock.json']);
  execFileSync('cp', ['-al', 'node_modules', join(dir, 'node_modules')]);
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: dir, stdio: 'inherit' });
  return dir;
}

function instance(port: number, cwd?: string): Promise<ServiceProcess> {
  return startService(
    port,
    {
      DATABASE_URL: ROLLOUT_DATABASE_URL,
      SERVICE_FILE: join(deploy.dir, `service-${port}.json`),
      // Behind one balancer: one public origin (the token audience and issuer) for both.
      PUBLIC_ORIGIN: `http://localhost:${OLD}`,
      API_RATE_PER_SECOND: '100000',
      TOKEN_RATE_PER_CLIENT: '100000',
      SANDBOX_TIMEOUT_MS: '1500',
      WORKER_POLL_MS: '200',
    },
    { logFile: deploy.logFile(`service-${port}`), ...(cwd ? { cwd } : {}) },
  );
}

const numberOf = (body: string) => (JSON.parse(body) as { merchant_operation_number: string }).merchant_operation_number;

describe.skipIf(!ROLLOUT_DATABASE_URL)(
  `a rolling release: R1 (${PREVIOUS_RELEASE}) beside this release, on one PostgreSQL`,
  () => {
    it('stores a charge sent to both once, and settles the attempts a killed R1 instance left in flight', async () => {
      const old = await instance(OLD, previousRelease());
      services.push(old);
      const bearer = await token(old.origin);
      const alone = await Promise.all(Array.from({ length: 10 }, () => postCharge(old.origin, bearer, chargeBody('r1'))));
      expect(alone.map((answer) => answer.status)).toStrictEqual(Array(10).fill(200));

      const next = await instance(NEW);
      services.push(next);
      const operator = operatorClient(next.origin, join(deploy.dir, `service-${NEW}.json`));
      // Load over both releases.
      const mixed = await Promise.all(
        Array.from({ length: 40 }, (_, index) => postCharge((index % 2 ? next : old).origin, bearer, chargeBody('mixed'))),
      );
      expect(mixed.map((answer) => answer.status)).toStrictEqual(Array(40).fill(200));

      // The same charge to both releases at once, twenty times over: one operation, one transaction.
      for (let round = 0; round < 20; round += 1) {
        const body = chargeBody('both');
        const answers = await Promise.all([postCharge(old.origin, bearer, body), postCharge(next.origin, bearer, body)]);
        // The later of the two waits for the earlier's answer and is given it.
        expect(answers.map((answer) => answer.status)).toStrictEqual([200, 200]);
        const stored = await operator.inspectOperation.query({
          merchantCode: 'DEMO001',
          merchantOperationNumber: numberOf(body),
        });
        const transactions = stored.transactions as { id: string; state: string }[];
        expect(transactions.map((transaction) => transaction.state)).toStrictEqual(['AUTORIZADO']);
        expect(answers.map((answer) => answer.body.transaction!.transaction_id)).toStrictEqual([
          transactions[0]!.id,
          transactions[0]!.id,
        ]);
      }

      // R1 killed with a charge in flight on each of its clients, every one held by acquirer A
      // until its timeout: each is left as R1 leaves it, a REGISTRADO row due for a status check.
      const outcome: Outcome = { answered: [], lost: [], refused: 0 };
      const clients = lateCharges(old.origin, bearer, 'killed', outcome, { clients: CLIENTS });
      await new Promise((resolve) => setTimeout(resolve, 500));
      await killHard(old);
      await Promise.all(clients);
      const registered = () =>
        deploy.inspect(async (prisma) => ({
          rows: await prisma.transaction.count({ where: { state: 'REGISTRADO' } }),
          claims: await prisma.chargeClaim.count(),
        }));
      expect(outcome.answered).toStrictEqual([]);
      expect(await registered()).toStrictEqual({ rows: CLIENTS, claims: 0 });

      // This release's status sync settles them once due (acquirer A's timeout + 30 s).
      const deadline = Date.now() + 90_000;
      while ((await registered()).rows > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 1_000));
      const { lost } = await storedOutcomes(operator, outcome);
      const checks = await deploy.inspect(integrity);
      console.log(
        `[rolling release] R1 ${PREVIOUS_RELEASE} and this release: 10 + 40 charges all 200; 20 charges sent to both ` +
          `at once, each stored once and both answered with it; R1 killed with ${outcome.lost.length} in flight: ` +
          `${JSON.stringify(lost)} after this release's status sync; database checks ${JSON.stringify(checks)}`,
      );
      expect(await registered()).toStrictEqual({ rows: 0, claims: 0 });
      expect(lost.whole + lost.declined).toBe(CLIENTS);
      expect(checks).toStrictEqual(CLEAN);
    });
  },
);
