// npm run rehearse:deploy [-- --reuse-build] [-- --keep]: the Dockerfile and compose.yaml carried
// out on this machine, where no container engine runs (docs/DEPLOYMENT.md). The build context is
// copied by .dockerignore; the Dockerfile's stages run step by step (npm ci, npm run build,
// npm prune, the runtime stage's COPYs); then compose's topology runs from the runtime file set:
// two instances with the image's CMD, the worker with compose's command, both with compose's
// environment and the image's USER (an unprivileged local user), on PostgreSQL, behind nginx
// with deploy/nginx.conf. Through the balancer it checks health, a token, a charge, that both
// instances answered, the worker's signed callback and the callback outcome in the metrics; it
// runs the image's HEALTHCHECK and compose's PostgreSQL healthcheck; it ends with the secrets
// scan of every log and table.
//
// --reuse-build (CI's fast pass): the build stage takes this checkout's node_modules (hard links)
// and .next, made by the same `npm ci` and `npm run build` moments before, instead of running
// them again; every other step, `npm prune --omit=dev` included, runs as written.
// REHEARSAL_PORT (3960): the balancer; the instances take the next two ports.
// REHEARSAL_DATABASE_URL: the PostgreSQL database (emptied first); scripts/local-postgres.sh's
// pay_rehearsal by default.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { PrismaClient } from '../src/generated/prisma/client';
import { openDatabase } from '../src/server/platform/db/adapter';
import { verifyBody } from '../src/server/modules/events/callbacks/sign';
import { secretScan } from '../src/server/modules/console/secret-scan';
import { startReceiver, type Receiver } from '../e2e/support/receiver';
import { KNOWN_TEST_SECRETS } from '../e2e/support/test-secrets';
import { apiHeaders, chargeBody, token } from './support/api-client';
import { parseCompose, type ComposeService } from './support/compose';
import { copyBuildContext } from './support/dockerignore';
import { buildImage, copyTree, type Image, type LocalUser } from './support/dockerfile-runner';
import { startBalancer, type Balancer } from './support/nginx-balancer';
import { startService, type ServiceProcess } from './support/service-process';
import { scanLogFiles, secretsVerdict } from '../e2e/support/secrets-scan';
import { startWorkerProcess, type WorkerProcess } from './support/worker-process';

const REUSE_BUILD = process.argv.includes('--reuse-build');
const KEEP = process.argv.includes('--keep');
const PORT = Number(process.env.REHEARSAL_PORT ?? 3960);
const MERCHANT = 'REHEARSAL1';
const logDir = resolve('.data', `rehearsal-${PORT}`);
const log = (line: string) => console.log(`[rehearsal] ${line}`);
const elapsedSeconds = (since: number) => (performance.now() - since) / 1000;

type Check = { name: string; detail: string };
const checks: Check[] = [];
/** Opens a payer page in Chromium, presses "Cancelar y volver", and says where the browser landed and what it shows. */
async function abandonInBrowser(pageUrl: string): Promise<{ url: string; heading: string }> {
  const browser = await chromium.launch({
    ...(existsSync('/usr/bin/chromium') ? { executablePath: '/usr/bin/chromium' } : {}),
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage();
    await page.goto(pageUrl);
    await Promise.all([
      page.waitForURL(/\/pay\/[^/]+\?/),
      page.getByRole('button', { name: 'Cancelar y volver', exact: true }).click(),
    ]);
    return { url: page.url(), heading: (await page.getByRole('heading', { level: 1 }).textContent())?.trim() ?? '' };
  } finally {
    await browser.close();
  }
}

function check(name: string, ok: boolean, detail: string): void {
  if (!ok) throw new Error(`${name}: ${detail}`);
  checks.push({ name, detail });
  log(`ok  ${name}: ${detail}`);
}

/** The local user that stands for one of the image (`node` if this machine has it, else `nobody`). */
function localUser(dir: string, name: string): LocalUser {
  const id = (flag: string, who: string) => execFileSync('id', [flag, who], { encoding: 'utf8' }).trim();
  const who = spawnSync('id', ['-u', name]).status === 0 ? name : 'nobody';
  const user = { name: who, group: id('-gn', who), uid: Number(id('-u', who)), gid: Number(id('-g', who)), home: '' };
  // The image's user has a home of its own (npm and Next write there).
  user.home = join(dir, 'home', who);
  if (!existsSync(user.home)) {
    mkdirSync(user.home, { recursive: true });
    chownSync(user.home, user.uid, user.gid);
  }
  return user;
}

/** --reuse-build: `npm ci` and `npm run build` of the build stage from this checkout. */
function reuseCheckout(step: string, cwd: string): Promise<boolean> {
  if (!REUSE_BUILD) return Promise.resolve(false);
  const reuse = (what: string, from: string, linked: boolean) => {
    log(`RUN ${step}: reused from the checkout (${what})`);
    copyTree(from, join(cwd, from), linked);
  };
  if (/^npm ci\b/.test(step)) {
    reuse('node_modules, hard links', 'node_modules', true);
    // npm prune rewrites npm's own record of node_modules: a copy, so the checkout's stays as it is.
    rmSync(join(cwd, 'node_modules/.package-lock.json'));
    copyTree('node_modules/.package-lock.json', join(cwd, 'node_modules/.package-lock.json'), false);
    return Promise.resolve(true);
  }
  if (/^npm run build\b/.test(step)) {
    if (!existsSync('.next/BUILD_ID')) throw new Error('--reuse-build needs a build: npm run build');
    reuse('.next and the generated Prisma client', '.next', false);
    copyTree('src/generated', join(cwd, 'src/generated'), false);
    return Promise.resolve(true);
  }
  return Promise.resolve(false);
}

function databaseUrl(): string {
  const given = process.env.REHEARSAL_DATABASE_URL;
  const url = given || execFileSync('bash', ['scripts/local-postgres.sh', 'pay_rehearsal'], { encoding: 'utf8' }).trim();
  if (!url) throw new Error('no PostgreSQL: set REHEARSAL_DATABASE_URL or install PostgreSQL');
  execFileSync('psql', [url, '-q', '-c', 'DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PGOPTIONS: '--client-min-messages=warning' },
  });
  return url;
}

/** A command of the image or of compose, run in the image's WORKDIR as its user with `env`; its exit code. */
function runInImage(image: Image, command: string[], env: Record<string, string>): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const [program, ...args] = command;
    const child = spawn(program === 'node' ? process.execPath : program!, args, {
      cwd: join(image.root, image.workdir),
      env: env as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'inherit'],
      ...(image.user ? { uid: image.user.uid, gid: image.user.gid } : {}),
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code: code ?? 1, stdout }));
  });
}

function fileHash(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** Request log lines an instance wrote (one JSON line per API request). */
function requestLines(file: string): number {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.includes('"message":"request"')).length;
}

async function main(): Promise<void> {
  const started = performance.now();
  if (spawnSync('nginx', ['-v']).status !== 0) throw new Error('nginx is needed (apt-get install -y nginx)');
  rmSync(logDir, { recursive: true, force: true });
  mkdirSync(logDir, { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), 'pay-rehearsal-'));
  chmodSync(dir, 0o755);
  const processes: { instances: ServiceProcess[]; worker?: WorkerProcess; balancer?: Balancer; receiver?: Receiver } = {
    instances: [],
  };
  const secrets = {
    NEXTAUTH_SECRET: randomBytes(24).toString('base64url'),
    METRICS_TOKEN: randomBytes(18).toString('base64url'),
    VAULT_KEYS: `rehearsal-1:${randomBytes(32).toString('base64')}`,
    VAULT_FINGERPRINT_KEY: randomBytes(32).toString('base64'),
  };
  let clientSecret = '';
  let summary = '';
  const checkoutLock = REUSE_BUILD ? fileHash('node_modules/.package-lock.json') : '';
  const url = databaseUrl();
  try {
    // 1. The build context and the image.
    const files = copyBuildContext('.', join(dir, 'context'));
    log(`build context: ${files} files (.dockerignore applied)`);
    const users = new Map<string, LocalUser>();
    const userFor = (name: string) => users.get(name) ?? users.set(name, localUser(dir, name)).get(name)!;
    const buildStarted = performance.now();
    const image = await buildImage({
      dockerfile: readFileSync('Dockerfile', 'utf8'),
      context: join(dir, 'context'),
      dir,
      userFor,
      substitute: REUSE_BUILD ? reuseCheckout : undefined,
      log,
    });
    const buildSeconds = elapsedSeconds(buildStarted);
    log(`image built in ${buildSeconds.toFixed(0)} s${REUSE_BUILD ? ' (npm ci and npm run build reused)' : ''}`);
    const app = join(image.root, image.workdir);
    check(
      'runtime file set',
      existsSync(join(app, '.next/BUILD_ID')) && existsSync(join(app, 'public/robots.txt')),
      readdirSync(app).join(' '),
    );
    check(
      'npm prune --omit=dev',
      ['vitest', 'eslint', 'autocannon'].every((dev) => !existsSync(join(app, 'node_modules', dev))) &&
        ['next', 'tsx', '@prisma/client'].every((runtime) => existsSync(join(app, 'node_modules', runtime))),
      'vitest, eslint, autocannon (dev) gone; next, tsx, @prisma/client (runtime) kept',
    );
    const user = image.user;
    const owned = user
      ? spawnSync('find', [app, '-user', String(user.uid), '-not', '-path', `${app}/.data`, '-print', '-quit'], {
          encoding: 'utf8',
        }).stdout.trim()
      : '';
    check(
      'image user',
      user !== null && owned === '' && statSync(join(app, '.data')).uid === user.uid,
      `USER stands as ${user?.name} (uid ${user?.uid}), owning .data and no other file of the image`,
    );

    // 2. compose's services with their environment; host names and ports made local.
    const balancerPort = PORT;
    const instancePorts = [PORT + 1, PORT + 2];
    // Another host name than the one the instances listen on (Chromium resolves *.localhost to
    // this machine): an address the service gives out from its own request would show.
    const publicOrigin = `http://pagos.localhost:${balancerPort}`;
    const compose = parseCompose(readFileSync('compose.yaml', 'utf8'), {
      POSTGRES_PASSWORD: 'not-used-here',
      PUBLIC_ORIGIN: publicOrigin,
      // The callback receiver runs on this machine.
      CALLBACKS_ALLOW_PRIVATE_NETWORKS: 'true',
      // nginx runs on this machine, not on compose's network.
      TRUSTED_PROXIES: 'loopback',
      ...secrets,
    });
    const built = Object.entries(compose).filter(([, service]) => service.image === undefined);
    const instances = built.filter(([, service]) => !service.command);
    const workers = built.filter(([, service]) => service.command);
    check(
      'compose services',
      instances.length === 2 && workers.length === 1,
      `instances ${instances.map(([name]) => name).join(', ')}; worker ${workers.map(([name]) => name).join(', ')}`,
    );
    const imagePort = image.env.PORT ?? '3000';
    const environment = (service: ComposeService, port?: number): Record<string, string> => ({
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: image.user?.home ?? dir,
      ...image.env,
      ...service.environment,
      // compose's `postgres` host is this machine's server; each instance has a port of its own.
      DATABASE_URL: url,
      ...(port ? { PORT: String(port) } : {}),
    });
    const postgresCheck = compose.postgres?.healthcheck;
    if (postgresCheck) {
      const result = spawnSync(postgresCheck[0]!, postgresCheck.slice(1), { encoding: 'utf8' });
      check('compose postgres healthcheck', result.status === 0, `${postgresCheck.join(' ')}: ${result.stdout.trim()}`);
    }

    // 3. Two instances (the image's CMD), the worker (compose's command), nginx in front.
    const startedInstances = performance.now();
    const starting = await Promise.allSettled(
      instances.map(([name, service], index) =>
        startService(instancePorts[index]!, environment(service, instancePorts[index]), {
          command: image.cmd,
          cwd: app,
          user: image.user ?? undefined,
          cleanEnvironment: true,
          logFile: join(logDir, `${name}.log`),
        }),
      ),
    );
    for (const each of starting) if (each.status === 'fulfilled') processes.instances.push(each.value);
    for (const each of starting) if (each.status === 'rejected') throw each.reason;
    const [workerName, workerService] = workers[0]!;
    processes.worker = startWorkerProcess(environment(workerService), {
      command: workerService.command,
      cwd: app,
      uid: image.user?.uid,
      gid: image.user?.gid,
      cleanEnvironment: true,
      logFile: join(logDir, `${workerName}.log`),
    });
    const balancerService = compose.balancer!;
    const [, containerPort] = balancerService.ports[0]!.split(':');
    processes.balancer = await startBalancer({
      site: readFileSync('deploy/nginx.conf', 'utf8'),
      upstreams: Object.fromEntries(
        instances.map(([name], index) => [`${name}:${imagePort}`, `127.0.0.1:${instancePorts[index]}`]),
      ),
      listen: { from: Number(containerPort), to: balancerPort },
      dir: join(dir, 'nginx'),
      logDir,
      user: image.user ?? userFor('nobody'),
    });
    log(`instances ready in ${elapsedSeconds(startedInstances).toFixed(0)} s; nginx on ${processes.balancer.origin}`);
    const origin = processes.balancer.origin;

    // 4. Checks, through the balancer.
    for (const [index, instance] of instances.entries()) {
      const healthcheck = await runInImage(image, image.healthcheck!, environment(instance[1], instancePorts[index]));
      check(`HEALTHCHECK ${instance[0]}`, healthcheck.code === 0, `${image.healthcheck!.slice(-1)[0]!.slice(0, 60)}… exit 0`);
    }
    const down = await runInImage(image, image.healthcheck!, environment(instances[0]![1], PORT + 9));
    check('HEALTHCHECK of a dead instance', down.code !== 0, `exit ${down.code} with nothing on port ${PORT + 9}`);
    const health = await fetch(`${origin}/api/health`);
    check('readiness through nginx', health.status === 200, `${health.status} ${(await health.text()).slice(0, 80)}`);
    const robots = await fetch(`${origin}/robots.txt`);
    check(
      'public/ in the image',
      robots.status === 200 && (await robots.text()).includes('Disallow: /'),
      `robots.txt ${robots.status}`,
    );

    // The operator's first steps, as `docker compose exec service-1 npm run cli -- ...` would take them.
    const cli = async (...args: string[]) => {
      const result = await runInImage(image, ['npm', 'run', '--silent', 'cli', '--', ...args], environment(instances[0]![1]));
      if (result.code !== 0) throw new Error(`npm run cli -- ${args[0]} failed`);
      return JSON.parse(result.stdout) as Record<string, unknown>;
    };
    await cli('create-merchant', '--code', MERCHANT, '--name', 'Rehearsal merchant');
    const issued = (await cli('issue-credential', '--merchant', MERCHANT)) as { client_id: string; client_secret: string };
    clientSecret = issued.client_secret;
    check('npm run cli in the image', Boolean(issued.client_id), `merchant ${MERCHANT} and a credential made`);
    const bearer = await token(origin, { clientId: issued.client_id, clientSecret }, publicOrigin);
    check('token through nginx', bearer.length > 0, 'POST /oauth/token 200');

    processes.receiver = await startReceiver();
    const receiver = processes.receiver;
    const body = JSON.parse(chargeBody('rehearsal', { callback_url: receiver.url('/rehearsal') })) as Record<string, unknown>;
    body.merchant_code = MERCHANT;
    const charge = await fetch(`${origin}/api/charges`, {
      method: 'POST',
      headers: apiHeaders(bearer),
      body: JSON.stringify(body),
    });
    const charged = (await charge.json()) as { transaction?: { transaction_id: string; state: string } };
    check(
      'charge through nginx',
      charge.status === 200 && charged.transaction?.state === 'AUTORIZADO',
      `${charge.status} ${charged.transaction?.state}`,
    );
    const path = [MERCHANT, body.merchant_operation_number as string, charged.transaction!.transaction_id].join('/');
    const queries = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${origin}/api/charges/${path}`, { headers: apiHeaders(bearer) }).then((r) => r.status),
      ),
    );
    check(
      'queries through nginx',
      queries.every((status) => status === 200),
      `20 GET /api/charges/... all 200`,
    );
    const served = instances.map(([name]) => requestLines(join(logDir, `${name}.log`)));
    check(
      'both instances served',
      served.every((count) => count > 0),
      instances.map(([name], index) => `${name} ${served[index]} requests`).join(', '),
    );

    const callbacks = await receiver.waitFor((received) => new Set(received.map((each) => each.eventId)).size >= 3, 60_000);
    const publicKey = await (await fetch(`${origin}/api/webhooks/public-key`)).text();
    check(
      'the worker delivered',
      callbacks.every((each) => verifyBody(each.body, each.signature, publicKey)),
      `${callbacks.length} signed callbacks (${callbacks.map((each) => String(each.json.event_type)).join(', ')})`,
    );
    const scrape = () =>
      fetch(`${origin}/api/metrics`, { headers: { authorization: `Bearer ${secrets.METRICS_TOKEN}` } }).then((r) => r.text());
    const series = 'pay_callback_attempts_total{outcome="delivered"}';
    let delivered = 0;
    for (const deadline = Date.now() + 30_000; delivered < 3 && Date.now() < deadline;) {
      const line = (await scrape()).split('\n').find((each) => each.startsWith(`${series} `));
      delivered = line ? Number(line.slice(series.length + 1)) : 0;
      if (delivered < 3) await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    check("the worker's deliveries in an instance's metrics", delivered >= 3, `${series} ${delivered}`);

    // The payer pages behind nginx, in a browser on the public origin: a PagoEfectivo order without
    // redirect_url (its CIP page is the payer page), abandoned; the payer stays on PUBLIC_ORIGIN.
    const cashBody = {
      ...body,
      merchant_operation_number: `${String(body.merchant_operation_number)}-cash`,
      payment_method: { method_name: 'PAGOEFECTIVO', method_details: {} },
    };
    const cash = (await (
      await fetch(`${origin}/api/charges`, { method: 'POST', headers: apiHeaders(bearer), body: JSON.stringify(cashBody) })
    ).json()) as { transaction?: { processor_response?: { cip_url?: string } } };
    const cipUrl = cash.transaction?.processor_response?.cip_url ?? '';
    check('payer page address on PUBLIC_ORIGIN', cipUrl.startsWith(`${publicOrigin}/pay/`), cipUrl);
    const landed = await abandonInBrowser(cipUrl);
    check(
      'a payer action behind nginx stays on PUBLIC_ORIGIN',
      landed.url.startsWith(`${publicOrigin}/pay/`) && landed.heading === 'Pago cancelado',
      `${landed.url} "${landed.heading}"`,
    );

    // 5. Stop everything as `docker compose down` would (SIGTERM, nginx's SIGQUIT), then the scan.
    await processes.balancer.stop();
    await processes.worker.stop();
    for (const instance of processes.instances) await instance.stop();
    const handle = await openDatabase({ databaseUrl: url, pgliteDir: '' });
    const prisma = new PrismaClient({ adapter: handle.factory });
    const known = {
      ...KNOWN_TEST_SECRETS,
      CLIENT_SECRET: [...KNOWN_TEST_SECRETS.CLIENT_SECRET, clientSecret],
      TEXT: [secrets.NEXTAUTH_SECRET, secrets.METRICS_TOKEN, secrets.VAULT_KEYS.split(':')[1]!, secrets.VAULT_FINGERPRINT_KEY],
    };
    try {
      const logs = scanLogFiles(
        readdirSync(logDir).map((name) => join(logDir, name)),
        known,
      );
      log(secretsVerdict(logs, [await secretScan(prisma, known)]));
    } finally {
      await prisma.$disconnect();
      await handle.close();
    }
    if (REUSE_BUILD)
      check(
        "the checkout's node_modules untouched",
        existsSync('node_modules/vitest') && fileHash('node_modules/.package-lock.json') === checkoutLock,
        'its dev packages and npm record as before the prune',
      );
    summary = `image ${buildSeconds.toFixed(0)} s${REUSE_BUILD ? ' (build reused)' : ''}`;
  } finally {
    await processes.balancer?.stop();
    await processes.worker?.killHard();
    for (const instance of processes.instances) await instance.stop();
    await processes.receiver?.close();
    if (KEEP) log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
  log(
    `passed ${checks.length} checks in ${elapsedSeconds(started).toFixed(0)} s (${summary}, clean-up included); logs in ${logDir}`,
  );
}

main().catch((error: unknown) => {
  console.error(`[rehearsal] FAILED: ${error instanceof Error ? error.message : String(error)} (logs in ${logDir})`);
  process.exit(1);
});
