import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

// Where the vault's keys come from: the configuration, else a key file made on first start.
async function withSettings(settings: Record<string, string | undefined>) {
  vi.resetModules();
  vi.unstubAllEnvs();
  for (const [name, value] of Object.entries(settings)) vi.stubEnv(name, value);
  return import('./vault-keys');
}

afterEach(() => vi.unstubAllEnvs());

describe('the vault keys', () => {
  it('are made on first start in a key file only its user reads, then read from it', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'vault-')), 'keys', 'vault-keys.json');
    const keys = await withSettings({ VAULT_KEY_FILE: path, VAULT_KEYS: undefined, VAULT_FINGERPRINT_KEY: undefined });
    const first = keys.vaultKeys();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(first.ring.current.key).toHaveLength(32);
    expect(first.fingerprintKey).toHaveLength(32);
    keys.forgetVaultKeys();
    const again = keys.vaultKeys();
    expect(again.ring.current.key.equals(first.ring.current.key)).toBe(true);
    expect(again.fingerprintKey.equals(first.fingerprintKey)).toBe(true);
  });

  it('rotate: the key file gets a new first key, the old one unwraps until retired; the fingerprint key stays', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'vault-')), 'vault-keys.json');
    const keys = await withSettings({ VAULT_KEY_FILE: path, VAULT_KEYS: undefined, VAULT_FINGERPRINT_KEY: undefined });
    const before = keys.vaultKeys();
    const rotation = keys.rotateVaultKey();
    expect(rotation).toMatchObject({ kind: 'file', path });
    const after = keys.vaultKeys();
    expect(after.ring.current.kid).toBe(rotation.kid);
    expect(after.ring.byId.get(before.ring.current.kid)?.equals(before.ring.current.key)).toBe(true);
    expect(after.fingerprintKey.equals(before.fingerprintKey)).toBe(true);
    // Still named by a record: kept. Named by none: retired.
    expect(keys.retireVaultKeys(new Set([rotation.kid, before.ring.current.kid]))).toEqual([]);
    expect(keys.retireVaultKeys(new Set([rotation.kid]))).toEqual([before.ring.current.kid]);
    const file = JSON.parse(readFileSync(path, 'utf8')) as { keys: { kid: string }[] };
    expect(file.keys.map((each) => each.kid)).toEqual([rotation.kid]);
  });

  it('come from VAULT_KEYS and VAULT_FINGERPRINT_KEY when set, with no file; a rotation returns the setting to deploy', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'vault-')), 'vault-keys.json');
    const k1 = Buffer.alloc(32, 7).toString('base64');
    const keys = await withSettings({
      VAULT_KEY_FILE: path,
      VAULT_KEYS: `k1:${k1}`,
      VAULT_FINGERPRINT_KEY: Buffer.alloc(32, 9).toString('base64'),
    });
    expect(keys.vaultKeys().ring.current.kid).toBe('k1');
    expect(() => statSync(path)).toThrow();
    const rotation = keys.rotateVaultKey();
    expect(rotation.kind).toBe('configured');
    if (rotation.kind === 'configured') expect(rotation.setting).toBe(`${rotation.entry},k1:${k1}`);
  });
});
