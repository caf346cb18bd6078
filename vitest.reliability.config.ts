import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Fault tests against the built service as a process (kill -9 and restart), on PGlite or on
// RELIABILITY_DATABASE_URL. scripts/test.sh runs the fast pass; RELIABILITY_FULL=true the full one.
export default defineConfig({
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      '@tests': fileURLToPath(new URL('./tests', import.meta.url)),
    },
  },
  test: {
    include: ['tests/reliability/**/*.test.ts'],
    environment: 'node',
    testTimeout: 300_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    // The services and workers these tests start inherit it: their callback receivers run on this machine.
    env: { CALLBACKS_ALLOW_PRIVATE_NETWORKS: 'true' },
  },
});
