import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { existsSync, readdirSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { apiHeaders, chargeBody, token } from '../../scripts/support/api-client';
import { CLEAN, integrity } from './integrity';
import { DATABASE_URL, deployment, FULL, reliabilityPort } from './service-under-test';

// PostgreSQL stopped for a second and started again (as a failover or a slow restart is) under
// a light load of charges with Idempotency-Key and reads of what they charged: no answer is a
// 500; what the outage refuses is 503 `02` with Retry-After; a charge retried with its key after
// it is charged exactly once; reads meet the restart inside the service (they are retried there);
// /api/health says not ready while the database is away; the database is whole afterwards.
// The machine's cluster, so it runs where the suites run as root (CI) and only on PostgreSQL.
const PORT = reliabilityPort(9);
const version = existsSync('/etc/postgresql') ? readdirSync('/etc/postgresql').sort().at(-1) : undefined;
const canRestart = Boolean(DATABASE_URL) && version !== undefined && process.getuid?.() === 0;
const deploy = deployment(PORT);
const run = promisify(execFile);

afterAll(() => deploy.finish());

type Tally = {
  statuses: Record<string, number>;
  unavailable: { code: string; retryAfter: string | null }[];
  /** The operation numbers answered 200, by the transaction state the answer gave. */
  charged: Record<string, string[]>;
  unresolved: string[];
};

function count(tally: Tally, status: number) {
  tally.statuses[status] = (tally.statuses[status] ?? 0) + 1;
}

/** One charge, retried with its Idempotency-Key as the 503 says, then a read of its transaction. */
async function chargeUntilAnswered(origin: string, bearer: string, run: string, tally: Tally): Promise<void> {
  const body = chargeBody(run);
  const number = (JSON.parse(body) as { merchant_operation_number: string }).merchant_operation_number;
  const headers = { ...apiHeaders(bearer), 'idempotency-key': `key-${number}` };
  for (let attempt = 0; attempt < 30; attempt += 1) {
    const response = await fetch(`${origin}/api/charges`, { method: 'POST', headers, body }).catch(() => null);
    if (response === null) {
      count(tally, 0);
      await new Promise((resolve) => setTimeout(resolve, 200));
      continue;
    }
    count(tally, response.status);
    const answer = (await response.json()) as {
      meta: { status: { code: string } };
      transaction?: { transaction_id: string; state: string };
    };
    if (response.status === 200) {
      // AUTORIZADO; or REGISTRADO when the processor's answer could not be stored before the
      // retry's wait ran out: the status sync settles it (docs/ORCHESTRATION.md 3).
      (tally.charged[answer.transaction!.state] ??= []).push(number);
      const read = await fetch(`${origin}/api/charges/DEMO001/${number}/${answer.transaction!.transaction_id}`, {
        headers: apiHeaders(bearer),
      });
      count(tally, read.status);
      await read.arrayBuffer();
      return;
    }
    if (response.status === 503) {
      tally.unavailable.push({ code: answer.meta.status.code, retryAfter: response.headers.get('retry-after') });
      await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? 1) * 250));
      continue;
    }
    tally.unresolved.push(`${number}: ${response.status} ${answer.meta.status.code}`);
    return;
  }
  tally.unresolved.push(`${number}: no answer after 30 tries`);
}

describe('PostgreSQL restarted under a load of charges', () => {
  it.runIf(canRestart)(
    'answers 200 or 503 02 with Retry-After, never 500; a charge retried with its key is charged once',
    async () => {
      const service = await deploy.start();
      const bearer = await token(service.origin);
      const tally: Tally = { statuses: {}, unavailable: [], charged: {}, unresolved: [] };
      const health: Record<string, number> = {};
      const stop = { now: false };
      const clients = Array.from({ length: 4 }, async () => {
        while (!stop.now) await chargeUntilAnswered(service.origin, bearer, 'pgrestart', tally);
      });
      const probe = (async () => {
        while (!stop.now) {
          const response = await fetch(`${service.origin}/api/health`).catch(() => null);
          health[response?.status ?? 0] = (health[response?.status ?? 0] ?? 0) + 1;
          await response?.arrayBuffer();
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
      })();
      // The console's tRPC (as the operator CLI calls it) meets the outage too: 503 with Retry-After, never 500.
      const { operatorToken } = JSON.parse(readFileSync(deploy.serviceFile, 'utf8')) as { operatorToken: string };
      const consoleAnswers: Record<string, number> = {};
      const consoleProbe = (async () => {
        while (!stop.now) {
          const response = await fetch(`${service.origin}/api/trpc/admin.listCredentials?input=${encodeURIComponent('{}')}`, {
            headers: { 'x-operator-token': operatorToken },
          }).catch(() => null);
          const label =
            response?.status === 503 ? `503 Retry-After ${response.headers.get('retry-after')}` : String(response?.status ?? 0);
          consoleAnswers[label] = (consoleAnswers[label] ?? 0) + 1;
          await response?.arrayBuffer();
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      const restarts = FULL ? 3 : 1;
      for (let round = 0; round < restarts; round += 1) {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        // Down for a second, as a failover or a slow restart is (a fast restart alone is over in
        // 150 ms). Run asynchronously: the load goes on meanwhile.
        const cluster = ['--skip-systemctl-redirect', version!, 'main'];
        await run('pg_ctlcluster', [...cluster, 'stop', '-m', 'fast']);
        await new Promise((resolve) => setTimeout(resolve, 1000));
        await run('pg_ctlcluster', [...cluster, 'start']);
      }
      await new Promise((resolve) => setTimeout(resolve, 3000));
      stop.now = true;
      await Promise.all([...clients, probe, consoleProbe]);
      const after = await fetch(`${service.origin}/api/health`);
      expect(after.status).toBe(200);
      await service.stop();

      const answered = Object.values(tally.charged).flat();
      const stored = await deploy.inspect(async (prisma) => {
        // Each operation by its latest attempt (a processor that met the outage may have been
        // failed over from, docs/ORCHESTRATION.md 2).
        const rows = await prisma.transaction.findMany({
          where: { operation: { merchantOperationNumber: { in: answered } } },
          orderBy: { attempt: 'desc' },
          distinct: ['operationId'],
          select: { state: true, statusCheckAt: true, operation: { select: { merchantOperationNumber: true } } },
        });
        // An attempt in flight (its claim) is the operation's latest, REGISTRADO and due for the status sync.
        const claimed = await prisma.$queryRaw<{ number: string }[]>`
          SELECT o.merchant_operation_number AS number FROM charge_claims c JOIN operations o ON o.id = c.operation_id
          WHERE o.merchant_operation_number = ANY(${answered})`;
        const inFlight = new Set(claimed.map((row) => row.number));
        const byState: Record<string, string[]> = { ...(inFlight.size > 0 ? { REGISTRADO: [...inFlight] } : {}) };
        for (const row of rows.filter((each) => !inFlight.has(each.operation.merchantOperationNumber))) {
          const label =
            row.state !== 'REGISTRADO' ? row.state : row.statusCheckAt ? 'REGISTRADO' : 'REGISTRADO without a status check';
          (byState[label] ??= []).push(row.operation.merchantOperationNumber);
        }
        return { byState, checks: await integrity(prisma) };
      });
      const sorted = (groups: Record<string, string[]>) =>
        Object.fromEntries(Object.entries(groups).map(([state, numbers]) => [state, [...numbers].sort()]));
      console.log(
        `[fault:database-restart] ${restarts} restart(s): charges answered 200 ${JSON.stringify(Object.fromEntries(Object.entries(tally.charged).map(([state, numbers]) => [state, numbers.length])))}, ` +
          `answers ${JSON.stringify(tally.statuses)}, ${tally.unavailable.length} answered 503, health ${JSON.stringify(health)}, ` +
          `unresolved ${JSON.stringify(tally.unresolved)}, database checks ${JSON.stringify(stored.checks)}, ` +
          `console tRPC ${JSON.stringify(consoleAnswers)}`,
      );
      expect(Object.keys(consoleAnswers).filter((label) => !['200', '503 Retry-After 1'].includes(label))).toEqual([]);
      expect(tally.statuses['500'] ?? 0).toBe(0);
      expect(Object.keys(tally.statuses).filter((status) => !['200', '503'].includes(status))).toEqual([]);
      expect(tally.unresolved).toEqual([]);
      // Most of the outage is absorbed inside (reads and answers' writes retried): a 503 is what
      // could not be, and says so.
      for (const refusal of tally.unavailable) expect(refusal).toEqual({ code: '02', retryAfter: '1' });
      expect(health['503'] ?? 0).toBeGreaterThan(0);
      // One transaction per operation answered, in the state its answer gave (a REGISTRADO one due
      // for the status sync), and no operation approved twice.
      expect(sorted(stored.byState)).toEqual(sorted(tally.charged));
      expect(stored.checks).toStrictEqual(CLEAN);
    },
  );
});
