import fc from 'fast-check';
import { operationsUrlFilters } from '../../../src/server/modules/console/operations-url';
import { NAUGHTY_STRINGS, wellFormed } from '../../support/naughty-strings';
import { callers, type Caller } from './callers';
import { endpoint, type Draft, type Expected, type FuzzRequest } from './request';
import type { FuzzTarget } from './target';

// Bad downloads of the operations CSV (/operations/export?<the operations page's filters>):
// filters the page's own reading refuses (src/server/modules/console/operations-url.ts decides
// which), other methods, from every kind of caller. Without a session the console's proxy sends
// the browser to sign in; a disabled user's session is 401; a signed-in user's bad filters 400.

const FILTERS = ['search', 'state', 'method', 'from', 'to', 'min', 'max', 'sort'];
const TO_SIGN_IN = /^\/login\?callbackUrl=%2Foperations%2Fexport/;

const nearMisses = fc.constantFrom(
  'liquidado',
  'CARD ',
  'card',
  '2026-13-45',
  '2026-02-30',
  '26-01-01',
  '2026-1-1',
  '0000-00-00',
  '9999-99-99',
  '12345678901',
  '150.555',
  '-1',
  '1e3',
  'Infinity',
  'newest,oldest',
  'x'.repeat(129),
);

/** The answer before the filters are read: the proxy's sign-in redirect, the route's 401, or null (a user's session). */
function refusalOf(caller: Caller): Expected | null {
  if (caller.cookie === 'none' || caller.cookie === 'forged') return { status: 307, location: TO_SIGN_IN };
  if (caller.cookie === 'disabled user') return { status: 401 };
  return null;
}

function filterDrafts(target: FuzzTarget): fc.Arbitrary<Draft> {
  const value = fc.oneof(fc.constantFrom(...NAUGHTY_STRINGS), nearMisses);
  return fc
    .tuple(fc.dictionary(fc.constantFrom(...FILTERS), value, { minKeys: 1, maxKeys: 3 }), callers(target))
    .map(([filters, caller]) => ({
      filters: Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, wellFormed(v)])),
      caller,
    }))
    .filter(({ filters }) => !operationsUrlFilters(filters).ok)
    .map(({ filters, caller }): Draft => ({
      category: 'filters',
      detail: `${caller.name}: ${JSON.stringify(filters).slice(0, 100)}`,
      path: `/operations/export?${new URLSearchParams(filters).toString()}`,
      headers: caller.headers,
      expected: refusalOf(caller) ?? { status: 400 },
    }));
}

function methodDrafts(target: FuzzTarget): fc.Arbitrary<Draft> {
  return fc.tuple(fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE'), callers(target)).map(([method, caller]): Draft => ({
    category: 'method',
    detail: `${caller.name}: ${method}`,
    method,
    headers: caller.headers,
    // The route has GET only, whoever calls: the method is refused before the sign-in check.
    expected: [405, '31'],
  }));
}

export function exportRequests(target: FuzzTarget): fc.Arbitrary<FuzzRequest> {
  return endpoint(
    'GET /operations/export',
    'GET',
    '/operations/export',
    fc.oneof({ weight: 4, arbitrary: filterDrafts(target) }, methodDrafts(target)),
  ).map((item) => ({ ...item, cookieless: true }));
}
