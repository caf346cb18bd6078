import { describe, expect, it } from 'vitest';
import { operationFiltersInput } from '@/server/modules/console/operations-filters';
import { operationsUrlFilters } from './operations-url';

// The operations page's address as filters: what it refuses (the fuzz suite's finds were 500s).
describe('operationsUrlFilters', () => {
  it('refuses days that do not exist, an impossible month among them (it threw a RangeError)', () => {
    for (const day of ['2026-13-45', '2026-02-30', '2026-00-10', '0000-00-00', '9999-99-99']) {
      expect([day, operationsUrlFilters({ from: day })]).toEqual([day, { ok: false, invalid: ['from'] }]);
      expect(operationsUrlFilters({ to: day })).toEqual({ ok: false, invalid: ['to'] });
    }
    expect(operationsUrlFilters({ from: '2024-02-29', to: '2026-12-31' }).ok).toBe(true);
  });

  it('refuses a search PostgreSQL cannot take (a NUL, an unpaired surrogate), as the table does', () => {
    for (const search of ['a\u0000b', '\ud83d', 'x\udfffy']) {
      expect(operationsUrlFilters({ search })).toEqual({ ok: false, invalid: ['search'] });
      expect(operationFiltersInput.safeParse({ search }).success).toBe(false);
    }
    expect(operationsUrlFilters({ search: "' OR 1=1 --" }).ok).toBe(true);
  });
});
