import { defineConfig } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { METRICS_TOKEN, serviceDataDir, serviceLogFile } from './e2e/support/service';
import { serviceCommand } from './scripts/support/service-process';

// Two services on fresh databases: the API suite's (production delays), and the asynchronous
// suite's (delays of seconds, so expiry, settlement, refund processing and callback retries
// happen during the run). Embedded PGlite by default; PostgreSQL when E2E_DATABASE_URL and
// E2E_DATABASE_URL_ASYNC are set (scripts/test.sh runs both).
const apiPort = Number(process.env.E2E_PORT ?? 3210);
const asyncPort = apiPort + 1;
// The processors' simulators (tests/simulators): merchants' processor accounts reach them.
const culqiPort = apiPort + 100;
const mercadoPagoPort = apiPort + 101;
const culqiSecurePort = apiPort + 102;
const niubizPort = apiPort + 103;
const izipayPort = apiPort + 104;
const chromium = '/usr/bin/chromium';
// Specs of the interface's protocol (tokens, headers, validation, the document, attacks): no
// database does anything in them that the other would not, so npm test runs them on PostgreSQL
// only (E2E_SKIP_DATABASE_AGNOSTIC), and npm run test:reliability on PGlite too. The money paths
// (charges, captures, refunds, processors, concurrency) run on both.
const DATABASE_AGNOSTIC = [
  'abuse',
  'authz',
  'charges-validation',
  'contract',
  'free-text',
  'fuzz/fuzz',
  'jwt-attacks',
  'oauth-clients',
  'observability',
  'openapi',
  'openapi-examples',
  'openapi-fetch',
  'protocol',
  'sdk',
  'sdk-tarball',
  'smoke',
  'token',
].map((name) => `**/api/${name}.spec.ts`);
const skipAgnostic = process.env.E2E_SKIP_DATABASE_AGNOSTIC === 'true';

function service(port: number, databaseUrl: string, extra: Record<string, string>) {
  const dataDir = serviceDataDir(port);
  const log = serviceLogFile(port);
  return {
    // Its stdout and stderr (request and error log lines) go to its log file, which the secrets
    // scan reads at the end and CI keeps; Playwright knows it is up from the URL. If it exits,
    // the end of the log goes to Playwright's output. Started again once if V8 aborts it in its
    // first minute with the JIT-page check of nodejs/node#64500 (SIGTRAP, 133), as
    // scripts/support/service-process.ts does for the fault suites.
    command:
      `rm -rf ${dataDir} && mkdir -p ${dataDir} && { ` +
      `for attempt in 1 2; do started=$(date +%s); ${serviceCommand().join(' ')} >> ${log} 2>&1; code=$?; ` +
      `if [ $attempt = 1 ] && [ $code = 133 ] && [ $(( $(date +%s) - started )) -lt 60 ] && grep -q 'Check failed: jit_page' ${log}; ` +
      `then echo "service on ${port}: V8 aborted it at start-up (nodejs/node#64500), starting it again" >&2; else break; fi; done; ` +
      `[ $code = 0 ] || { tail -n 40 ${log} >&2; exit 1; }; }`,
    url: `http://localhost:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: {
      PORT: String(port),
      PGLITE_DIR: `${dataDir}/pglite`,
      SERVICE_FILE: `${dataDir}/service.json`,
      DATABASE_URL: databaseUrl,
      TOKEN_TTL_SECONDS: '600',
      METRICS_TOKEN: METRICS_TOKEN,
      // A test-only key, so that the authorization suite can forge tokens wrong in one claim.
      TOKEN_SIGNING_JWK: readFileSync('e2e/support/test-signing-key.json', 'utf8').trim(),
      CULQI_API_URL: `http://127.0.0.1:${culqiPort}`,
      CULQI_SECURE_URL: `http://127.0.0.1:${culqiSecurePort}`,
      MERCADOPAGO_API_URL: `http://127.0.0.1:${mercadoPagoPort}`,
      NIUBIZ_TEST_API_URL: `http://127.0.0.1:${niubizPort}`,
      IZIPAY_API_URL: `http://127.0.0.1:${izipayPort}`,
      PROCESSOR_TIMEOUT_MS: '2000',
      // The suites' callback receivers run on this machine.
      CALLBACKS_ALLOW_PRIVATE_NETWORKS: 'true',
      // The suites stand in for many clients by X-Forwarded-For, sent from this machine.
      TRUSTED_PROXIES: 'loopback',
      ...extra,
    },
  };
}

export default defineConfig({
  testDir: './e2e',
  fullyParallel: true,
  workers: 2,
  // On CI a failed test runs once more and is reported as flaky (the list says which), so one
  // stall on a shared machine does not hide the rest of the run; locally nothing is retried.
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  timeout: 60_000,
  use: {
    launchOptions: existsSync(chromium)
      ? {
          executablePath: chromium,
          args: [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        }
      : {},
  },
  projects: [
    {
      name: 'api',
      testDir: './e2e/api',
      testIgnore: skipAgnostic ? DATABASE_AGNOSTIC : [],
      use: { baseURL: `http://localhost:${apiPort}` },
    },
    { name: 'async', testDir: './e2e/async', use: { baseURL: `http://localhost:${asyncPort}` } },
    {
      name: 'console',
      testDir: './e2e/console',
      use: { baseURL: `http://localhost:${apiPort}`, browserName: 'chromium', screenshot: 'only-on-failure' },
    },
    {
      name: 'browser',
      testDir: './e2e/browser',
      use: { baseURL: `http://localhost:${asyncPort}`, browserName: 'chromium', screenshot: 'only-on-failure' },
    },
  ],
  globalTeardown: './e2e/support/secrets-teardown.ts',
  webServer: [
    {
      command: `npx tsx tests/simulators/serve.ts --culqi-port ${culqiPort} --culqi-secure-port ${culqiSecurePort} --mercadopago-port ${mercadoPagoPort} --niubiz-port ${niubizPort} --izipay-port ${izipayPort}`,
      url: `http://127.0.0.1:${culqiPort}/__simulator/requests`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
    },
    // The API suites' many token requests all come from one address.
    service(apiPort, process.env.E2E_DATABASE_URL ?? '', { TOKEN_RATE_PER_ADDRESS: '200' }),
    service(asyncPort, process.env.E2E_DATABASE_URL_ASYNC ?? '', {
      WORKER_POLL_MS: '100',
      SETTLEMENT_DELAY_SECONDS: '3',
      REFUND_PROCESSING_DELAY_SECONDS: '1',
      CALLBACK_RETRY_SECONDS: '1,1,1',
      CALLBACK_TIMEOUT_MS: '3000',
      CALLBACK_LEASE_SECONDS: '5',
      // Low enough that e2e/api/abuse.spec.ts can empty one address's bucket (the default).
      TOKEN_RATE_PER_ADDRESS: '30',
      // e2e/async/capture-window.spec.ts: an uncaptured authorization is voided 4 s after it.
      CAPTURE_WINDOW_SECONDS: '4',
    }),
  ],
});
