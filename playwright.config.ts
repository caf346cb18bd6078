import { defineConfig } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';

// The API suite runs against `next start` on a fresh database: embedded PGlite by default,
// PostgreSQL when E2E_DATABASE_URL is set (scripts/test.sh runs both).
const port = Number(process.env.E2E_PORT ?? 3210);
const dataDir = `.data/e2e-${port}`;
const databaseUrl = process.env.E2E_DATABASE_URL ?? '';
const chromium = '/usr/bin/chromium';

export default defineConfig({
  testDir: './e2e',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  timeout: 60_000,
  use: {
    baseURL: `http://localhost:${port}`,
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
  projects: [{ name: 'api', testDir: './e2e/api' }],
  globalTeardown: './e2e/support/card-data-teardown.ts',
  webServer: {
    command: `rm -rf ${dataDir} && npx next start -p ${port}`,
    url: `http://localhost:${port}/api/openapi.json`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      PGLITE_DIR: `${dataDir}/pglite`,
      SERVICE_FILE: `${dataDir}/service.json`,
      DATABASE_URL: databaseUrl,
      TOKEN_TTL_SECONDS: '600',
      TOKEN_RATE_PER_ADDRESS: '200',
      // A test-only key, so that the authorization suite can forge tokens wrong in one claim.
      TOKEN_SIGNING_JWK: readFileSync('e2e/support/test-signing-key.json', 'utf8').trim(),
    },
  },
});
