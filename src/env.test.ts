import { afterEach, describe, expect, it, vi } from 'vitest';

// A production start refuses settings that would be unsafe facing the public, with one line.
async function startWith(settings: Record<string, string | undefined>): Promise<string> {
  vi.resetModules();
  vi.unstubAllEnvs();
  for (const [name, value] of Object.entries(settings)) vi.stubEnv(name, value);
  const { env } = await import('./env');
  try {
    env();
    return 'started';
  } catch (error) {
    return (error as Error).message;
  }
}

const PUBLIC = {
  NODE_ENV: 'production',
  PUBLIC_ORIGIN: 'https://pagos.example.pe',
  SEED_DEMO: 'false',
  CALLBACKS_ALLOW_PRIVATE_NETWORKS: 'false',
  TRUSTED_PROXIES: 'uniquelocal',
  METRICS_TOKEN: 'a-metrics-token-of-32-characters',
  VAULT_KEYS: `k1:${Buffer.alloc(32, 1).toString('base64')}`,
  VAULT_FINGERPRINT_KEY: Buffer.alloc(32, 2).toString('base64'),
};

afterEach(() => vi.unstubAllEnvs());

describe('a production start', () => {
  it('starts with the safe settings', async () => {
    expect(await startWith(PUBLIC)).toBe('started');
  });

  it.each([
    [{ PUBLIC_ORIGIN: 'http://pagos.example.pe' }, 'PUBLIC_ORIGIN http://pagos.example.pe is not https'],
    [{ CALLBACKS_ALLOW_PRIVATE_NETWORKS: 'true' }, 'CALLBACKS_ALLOW_PRIVATE_NETWORKS=true on a public origin'],
    [{ SEED_DEMO: 'true' }, 'SEED_DEMO=true on a public origin'],
    [{ TRUSTED_PROXIES: 'loopback, 0.0.0.0/0' }, 'TRUSTED_PROXIES trusts every address'],
    [{ TRUSTED_PROXIES: '::/0' }, 'TRUSTED_PROXIES trusts every address'],
    [{ METRICS_TOKEN: undefined }, 'METRICS_TOKEN is not set'],
    [{ CAPTURE_WINDOW_SECONDS: '60' }, 'CAPTURE_WINDOW_SECONDS is set'],
    [{ VAULT_KEYS: undefined }, 'VAULT_KEYS or VAULT_FINGERPRINT_KEY is not set'],
    [{ VAULT_FINGERPRINT_KEY: undefined }, 'VAULT_KEYS or VAULT_FINGERPRINT_KEY is not set'],
  ])('refuses %o with one line', async (change, reason) => {
    const message = await startWith({ ...PUBLIC, ...change });
    expect(message).toContain(`Unsafe configuration for production: ${reason}`);
    expect(message).not.toContain('\n');
  });

  it('keeps the conveniences of a start on this machine (the demo, the suites, the rehearsal)', async () => {
    for (const origin of ['http://localhost:3000', 'http://127.0.0.1:3960', 'http://pagos.localhost:3960', undefined]) {
      const local = {
        ...PUBLIC,
        PUBLIC_ORIGIN: origin,
        SEED_DEMO: 'true',
        CALLBACKS_ALLOW_PRIVATE_NETWORKS: 'true',
        METRICS_TOKEN: '',
      };
      expect(await startWith(local), String(origin)).toBe('started');
    }
  });
});
