import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_PANS } from './test-secrets';

// A card number a suite sends that the secrets scan does not know would never be looked for:
// every run of 13 to 19 digits in the suites' sources must be in TEST_PANS.
const SOURCES = ['e2e', 'tests', 'scripts/support', 'src/server/payments/sandbox'];
/** Digit runs of that length that are not card numbers: an amount the validation suite refuses. */
const NOT_CARD_NUMBERS = new Set(['1234567890123']);

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('TEST_PANS', () => {
  const files = SOURCES.flatMap(sourceFiles);
  const numbers = new Map<string, string>();
  for (const file of files) {
    for (const [digits] of readFileSync(file, 'utf8').matchAll(/(?<![\d.])\d{13,19}(?!\d)/g)) numbers.set(digits, file);
  }

  it('reads the suites, the scripts and the sandbox connectors, which send card numbers', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(numbers.has('4111111111111111')).toBe(true);
  });

  it('holds every card number those files use', () => {
    const known = new Set<string>(TEST_PANS);
    const missing = [...numbers].filter(([digits]) => !known.has(digits) && !NOT_CARD_NUMBERS.has(digits));
    expect(missing.map(([digits, file]) => `${digits} in ${file}`)).toEqual([]);
  });
});
