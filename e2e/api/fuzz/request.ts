import fc from 'fast-check';
import { NAUGHTY_STRINGS, wellFormed } from '../../support/naughty-strings';

// One generated bad request and what its answer must be; shared by the generators of every
// surface (fuzz-*-requests.ts), the sender and the answer checks.

/** What the answer to a bad request must be. */
export type Expected =
  /** The envelope of docs/DESIGN.md 4 with this HTTP status and meta.status.code (REST, token, API documents). */
  | [status: number, code: string]
  /** The tRPC error shape with this HTTP status and error kind (`error.data.kind`, as the console reads it). */
  | { trpc: [status: number, kind: string] }
  /**
   * This HTTP status (pages, payer forms, next-auth); a redirect (Location, or the `url` of
   * next-auth's JSON answers) goes to a path of this origin matching `location`.
   */
  | { status: number; location?: RegExp };

export type FuzzRequest = {
  endpoint: string;
  category: string;
  detail: string;
  method: string;
  /** Path and query, percent-encoded. */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  expected: Expected;
  /**
   * Sent with fetch rather than the contract-checked Playwright client, whose context keeps the
   * cookies answers set (next-auth sets some): cookie-carrying surfaces need every request alone.
   */
  cookieless?: true;
};

/** A request before the endpoint fills in its name, method and path (a draft may override them). */
export type Draft = Omit<FuzzRequest, 'endpoint' | 'method' | 'path'> & { method?: string; path?: string };

/** A path segment with `value` percent-encoded (unpaired surrogates travel as U+FFFD). */
export function encodeSegment(value: string): string {
  return encodeURIComponent(wellFormed(value));
}

/** Replacement path segments: naughty text, valid-looking but unknown values. */
export const segmentValues = fc
  .oneof(fc.constantFrom(...NAUGHTY_STRINGS), fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/), fc.uuid())
  .filter((value) => !['', '.', '..'].includes(wellFormed(value)));

const addresses = fc
  .tuple(fc.integer({ min: 18, max: 19 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 254 }))
  .map(([b, c, d]) => `198.${b}.${c}.${d}`);

export function endpoint(name: string, method: string, path: string, drafts: fc.Arbitrary<Draft>): fc.Arbitrary<FuzzRequest> {
  return fc.tuple(drafts, addresses).map(([draft, address]) => ({
    ...draft,
    endpoint: name,
    method: draft.method ?? method,
    path: draft.path ?? path,
    // Each request from its own benchmark-range address: the fuzz never drains the per-address
    // token bucket the other tests share.
    headers: { ...draft.headers, 'x-forwarded-for': address },
  }));
}
