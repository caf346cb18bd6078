import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      '@tests': fileURLToPath(new URL('./tests', import.meta.url)),
    },
  },
  test: {
    include: [
      'src/**/*.test.ts',
      'packages/**/*.test.ts',
      'e2e/support/*.test.ts',
      'scripts/support/*.test.ts',
      'scripts/bench/*.test.ts',
      'tests/simulators/**/*.test.ts',
      'tests/lint/*.test.ts',
    ],
    exclude: ['**/node_modules/**', 'packages/*/dist/**'],
    environment: 'node',
    // One migrated embedded database, dumped once; each test file's loads it (pglite-template.ts).
    globalSetup: ['tests/support/pglite-template.ts'],
    testTimeout: 30_000,
    // The callback receivers of the tests run on this machine.
    // The vault's key file of the run's tests, outside the checkout.
    env: { CALLBACKS_ALLOW_PRIVATE_NETWORKS: 'true', VAULT_KEY_FILE: join(tmpdir(), `pay-unit-vault-keys-${process.pid}.json`) },
  },
});
