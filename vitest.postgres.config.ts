import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Tests that need a PostgreSQL server (TEST_DATABASE_URL): several worker processes over one
// outbox. scripts/test.sh runs them in the PostgreSQL step.
export default defineConfig({
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      '@tests': fileURLToPath(new URL('./tests', import.meta.url)),
    },
  },
  test: {
    include: ['tests/postgres/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    env: {
      DATABASE_URL: process.env.TEST_DATABASE_URL ?? '',
      SEED_DEMO: 'false',
      CALLBACK_LEASE_SECONDS: '3',
      CALLBACKS_ALLOW_PRIVATE_NETWORKS: 'true',
    },
  },
});
