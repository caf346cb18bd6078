import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { env, type SealingKey } from '@/env';
import { keyRing, type KeyRing } from './sealed-box';

// The vault's keys (docs/DECISIONS.md "The vault"): key-encryption keys that wrap each saved
// card's data key, and the key of the PANs' fingerprints. They come from the configuration
// (VAULT_KEYS, VAULT_FINGERPRINT_KEY: a secret manager's, docs/DEPLOYMENT.md), never from the
// database: a copy of the database alone opens no card. Without the configuration, a key file
// made on first start (VAULT_KEY_FILE, mode 0600) holds them, for the demo and one machine.

export type VaultKeys = { ring: KeyRing; fingerprintKey: Buffer };

type KeyFile = { keys: { kid: string; key: string }[]; fingerprint_key: string };

function newKid(): string {
  return `kek-${new Date().toISOString().slice(0, 10)}-${randomBytes(3).toString('hex')}`;
}

function freshFile(): KeyFile {
  return {
    keys: [{ kid: newKid(), key: randomBytes(32).toString('base64') }],
    fingerprint_key: randomBytes(32).toString('base64'),
  };
}

/** Writes the file whole or not at all, readable by this user only. */
function writeKeyFile(path: string, file: KeyFile, exclusive: boolean): void {
  mkdirSync(dirname(path), { recursive: true });
  if (exclusive) {
    // Two processes starting together (the service and its worker) make one file: the second's open fails.
    const fd = openSync(path, 'wx', 0o600);
    try {
      writeSync(fd, JSON.stringify(file, null, 2));
    } finally {
      closeSync(fd);
    }
    return;
  }
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(file, null, 2), { mode: 0o600 });
  renameSync(temporary, path);
}

function readKeyFile(path: string): KeyFile {
  for (let attempt = 0; ; attempt += 1) {
    try {
      const file = JSON.parse(readFileSync(path, 'utf8')) as KeyFile;
      if (!Array.isArray(file.keys) || file.keys.length === 0 || typeof file.fingerprint_key !== 'string') {
        throw new Error(`${path} is not a vault key file`);
      }
      return file;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        try {
          writeKeyFile(path, freshFile(), true);
        } catch (racing) {
          if ((racing as NodeJS.ErrnoException).code !== 'EEXIST') throw racing;
        }
        continue;
      }
      // Another process is between its exclusive create and its write: read again shortly.
      if (error instanceof SyntaxError && attempt < 20) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25);
        continue;
      }
      throw error instanceof SyntaxError ? new Error(`${path} is not a vault key file`) : error;
    }
  }
}

function fromFile(file: KeyFile): VaultKeys {
  const keys: SealingKey[] = file.keys.map(({ kid, key }) => ({ kid, key: Buffer.from(key, 'base64') }));
  return { ring: keyRing(keys), fingerprintKey: Buffer.from(file.fingerprint_key, 'base64') };
}

let cached: { keys: VaultKeys; fileMtimeMs: number | null } | undefined;

/**
 * The vault's keys: the configured ones, else the key file's (read again when it changes, so a
 * rotation reaches every process of the machine).
 */
export function vaultKeys(): VaultKeys {
  const config = env();
  if (config.VAULT_KEYS && config.VAULT_FINGERPRINT_KEY) {
    cached ??= { keys: { ring: keyRing(config.VAULT_KEYS), fingerprintKey: config.VAULT_FINGERPRINT_KEY }, fileMtimeMs: null };
    return cached.keys;
  }
  let mtime: number | null = null;
  try {
    mtime = statSync(config.VAULT_KEY_FILE).mtimeMs;
  } catch {
    mtime = null;
  }
  if (cached && mtime !== null && cached.fileMtimeMs === mtime) return cached.keys;
  const file = readKeyFile(config.VAULT_KEY_FILE);
  const fileKeys = fromFile(file);
  // A configured setting wins over the file's for its part.
  const keys: VaultKeys = {
    ring: config.VAULT_KEYS ? keyRing(config.VAULT_KEYS) : fileKeys.ring,
    fingerprintKey: config.VAULT_FINGERPRINT_KEY ?? fileKeys.fingerprintKey,
  };
  cached = { keys, fileMtimeMs: statSync(config.VAULT_KEY_FILE).mtimeMs };
  return keys;
}

export type Rotation =
  { kind: 'file'; kid: string; path: string } | { kind: 'configured'; kid: string; entry: string; setting: string };

/**
 * A new key-encryption key. In the key file it becomes the first (the worker then re-wraps every
 * card under it); with VAULT_KEYS configured the service cannot change its secret manager, so the
 * new entry is returned to be put first in VAULT_KEYS, the old ones kept after it until the
 * worker reports none left.
 */
export function rotateVaultKey(): Rotation {
  const config = env();
  const kid = newKid();
  const key = randomBytes(32).toString('base64');
  if (config.VAULT_KEYS) {
    const setting = [`${kid}:${key}`, ...config.VAULT_KEYS.map((each) => `${each.kid}:${each.key.toString('base64')}`)].join(',');
    return { kind: 'configured', kid, entry: `${kid}:${key}`, setting };
  }
  const file = readKeyFile(config.VAULT_KEY_FILE);
  writeKeyFile(config.VAULT_KEY_FILE, { ...file, keys: [{ kid, key }, ...file.keys] }, false);
  cached = undefined;
  return { kind: 'file', kid, path: config.VAULT_KEY_FILE };
}

/** Drops from the key file the keys no record names any more (the worker calls it after re-wrapping). */
export function retireVaultKeys(inUse: ReadonlySet<string>): string[] {
  const config = env();
  if (config.VAULT_KEYS) return [];
  const file = readKeyFile(config.VAULT_KEY_FILE);
  const [current, ...older] = file.keys;
  const retired = older.filter((each) => !inUse.has(each.kid)).map((each) => each.kid);
  if (retired.length === 0) return [];
  writeKeyFile(config.VAULT_KEY_FILE, { ...file, keys: [current!, ...older.filter((each) => inUse.has(each.kid))] }, false);
  cached = undefined;
  return retired;
}

/** Tests: forget the keys read, so a changed setting or file is read again. */
export function forgetVaultKeys(): void {
  cached = undefined;
}
