import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkRuntime } from './runtime.mjs';

class Exited extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

/** What checkRuntime does for `version` against the engines range `required`: its log line, or the exit. */
function check(version: string, required = '>=24.11') {
  const dir = mkdtempSync(join(tmpdir(), 'runtime-'));
  const packageJson = join(dir, 'package.json');
  writeFileSync(packageJson, JSON.stringify({ engines: { node: required } }));
  const lines: string[] = [];
  const exit = (code: number): never => {
    throw new Exited(code);
  };
  try {
    checkRuntime('pay-test', { packageJson, version, exit, log: (line) => lines.push(line) });
    return { ran: true, lines };
  } catch (error) {
    if (error instanceof Exited) return { ran: false, code: error.code, lines };
    throw error;
  }
}

afterEach(() => vi.restoreAllMocks());

describe('the runtime check at start', () => {
  it('refuses a Node older than engines.node, the end-of-life 20 and a 24 before its LTS alike', () => {
    const refusal = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(check('20.20.2')).toEqual({ ran: false, code: 1, lines: [] });
    expect(refusal).toHaveBeenCalledWith(
      expect.stringMatching(
        /^pay-test: Node 20\.20\.2 is older than the supported >=24\.11 \(package\.json engines\); run it through npm/,
      ),
    );
    expect(check('22.21.0')).toEqual({ ran: false, code: 1, lines: [] });
    expect(check('24.10.0')).toEqual({ ran: false, code: 1, lines: [] });
  });

  it('runs on the oldest supported release and anything newer, and says which Node runs', () => {
    expect(check('24.11.0')).toEqual({ ran: true, lines: [expect.stringMatching(/^pay-test: Node 24\.11\.0 \(/)] });
    expect(check('24.22.3').ran).toBe(true);
    expect(check('25.0.0').ran).toBe(true);
    expect(check('26.1.0', '>=24').ran).toBe(true);
  });

  it('holds this project to its own engines.node: the tests themselves run on the Node it installs', () => {
    const lines: string[] = [];
    const exit = (code: number): never => {
      throw new Exited(code);
    };
    checkRuntime('pay-test', { exit, log: (line) => lines.push(line) });
    expect(lines).toEqual([`pay-test: Node ${process.versions.node} (${process.execPath})`]);
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(24);
  });
});
