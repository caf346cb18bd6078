import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// The API's HTTP entry loads what the REST paths use (docs/ARCHITECTURE.md, "Layers"): the lint
// rule rest-entry-loads-rest-only keeps the console's and the operator's procedures out; this
// keeps the whole graph in bounds, as dependency-cruiser resolves it.
const LIMIT = 250;

describe('the REST entry (http/node-api.ts)', () => {
  it(`reaches at most ${LIMIT} source modules, none of the console's or the operator's`, () => {
    const output = execFileSync(
      'node_modules/.bin/depcruise',
      ['src/server/http/node-api.ts', '--config', '.dependency-cruiser.cjs', '--output-type', 'json', '--no-progress'],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    const sources = (JSON.parse(output) as { modules: { source: string }[] }).modules
      .map((module) => module.source)
      .filter((source) => source.startsWith('src/'));
    expect(sources).toContain('src/server/api/routers/charges/authorize-charge.ts');
    expect(sources.filter((source) => /^src\/server\/(api\/routers\/(console|admin)\/|modules\/console\/)/.test(source))).toEqual(
      [],
    );
    expect(sources.length).toBeLessThanOrEqual(LIMIT);
  }, 60_000);
});
