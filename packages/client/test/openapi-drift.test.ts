import { readFileSync } from 'node:fs';
import { afterAll, expect, test, vi } from 'vitest';
import { SDK_TYPES_FILE, sdkTypesSource, useDocumentEnvironment } from '../../../scripts/support/sdk-types';

// The SDK's types are generated from the OpenAPI document and committed: this fails as soon as
// the document changes without `npm run sdk:generate`, so the SDK and the service cannot drift.

afterAll(() => {
  vi.unstubAllEnvs();
});

test('packages/client/src/openapi.ts is what the current OpenAPI document generates (else: npm run sdk:generate)', async () => {
  useDocumentEnvironment((name, value) => vi.stubEnv(name, value));
  const committed = readFileSync(SDK_TYPES_FILE, 'utf8');
  const generated = await sdkTypesSource();
  // One assertion on the whole text would print two 2,000-line files; the first differing line says enough.
  const [a, b] = [committed.split('\n'), generated.split('\n')];
  const line = a.findIndex((text, index) => text !== b[index]);
  const at = line === -1 && a.length !== b.length ? Math.min(a.length, b.length) : line;
  expect(at === -1 ? null : { line: at + 1, committed: a[at], generated: b[at] }, 'run npm run sdk:generate').toBeNull();
});
