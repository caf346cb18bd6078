import fc from 'fast-check';
import { HEADER_SAFE_STRINGS, NAUGHTY_STRINGS, wellFormed } from '../../support/naughty-strings';
import { encodeSegment, endpoint, segmentValues, type Draft, type FuzzRequest } from './request';
import type { FuzzTarget } from './target';

// Bad form posts to the payer pages' actions (/pay/<token>/pay and /abandon): unknown tokens and
// near misses of a pending payment's, a finished payment's token, hostile form bodies and
// languages, other methods. A post that moves nothing is sent back to the payer page (303 to
// /pay/<token>?lang=..., never to the merchant's redirect_url): the fuzz merchant's payments stay
// as they were.

const BACK_TO_PAGE = /^\/pay\/[^/?]+\?lang=(es|en)$/;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

function unknownTokens(target: FuzzTarget): fc.Arbitrary<string> {
  const pending = target.payer.pending;
  const nearMisses = [
    `${pending}x`,
    pending.slice(0, -1),
    pending.toUpperCase(),
    pending.toLowerCase(),
    `${pending[0] === 'A' ? 'B' : 'A'}${pending.slice(1)}`,
    `${pending}\u0000`,
    ` ${pending}`,
    `${pending}/`,
  ];
  return fc
    .oneof(segmentValues, fc.stringMatching(/^[A-Za-z0-9_-]{16,64}$/), fc.constantFrom(...nearMisses))
    .filter((token) => wellFormed(token).trim() !== pending && !['', '.', '..'].includes(wellFormed(token)));
}

function bodies(): fc.Arbitrary<{ detail: string; headers: Record<string, string>; body?: Buffer }> {
  return fc.oneof(
    fc.constantFrom(...NAUGHTY_STRINGS, '0', '-3', '12.5', '999999999999').map((installments) => ({
      detail: `installments=${installments.slice(0, 30)}`,
      headers: FORM,
      body: Buffer.from(new URLSearchParams({ installments: wellFormed(installments) }).toString()),
    })),
    fc
      .constantFrom('multipart/form-data; boundary=x', 'multipart/form-data', 'application/json', 'text/plain', 'application/xml')
      .map((type) => ({ detail: type, headers: { 'content-type': type }, body: Buffer.from('--x\r\ngarbage{"installments":') })),
    fc.constant({ detail: 'no body', headers: {} }),
    fc.integer({ min: 70_000, max: 300_000 }).map((size) => ({
      detail: `${size} bytes`,
      headers: FORM,
      body: Buffer.from(`installments=${'3'.repeat(size)}`),
    })),
  );
}

function postDrafts(target: FuzzTarget, action: 'pay' | 'abandon'): fc.Arbitrary<Draft> {
  const page = (token: string, query = '') => `/pay/${encodeSegment(token)}/${action}${query}`;
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc.tuple(unknownTokens(target), bodies()).map(([token, form]): Draft => ({
        category: 'unknown token',
        detail: `${token.slice(0, 40)} ${form.detail}`,
        path: page(token),
        headers: form.headers,
        body: form.body,
        expected: { status: 303, location: BACK_TO_PAGE },
      })),
    },
    bodies().map((form): Draft => ({
      category: 'finished payment',
      detail: form.detail,
      path: page(target.payer.cancelled),
      headers: form.headers,
      body: form.body,
      expected: { status: 303, location: BACK_TO_PAGE },
    })),
    fc.constantFrom(...HEADER_SAFE_STRINGS, 'EN', 'es-PE', 'pt').map((lang): Draft => ({
      category: 'language',
      detail: lang.slice(0, 40),
      path: page(target.payer.cancelled, `?lang=${encodeURIComponent(lang)}`),
      headers: FORM,
      body: Buffer.from(''),
      expected: { status: 303, location: BACK_TO_PAGE },
    })),
    fc
      .tuple(fc.constantFrom('GET', 'PUT', 'PATCH', 'DELETE'), fc.constantFrom(target.payer.cancelled, target.payer.pending))
      .map(([method, token]): Draft => ({
        category: 'method',
        detail: method,
        method,
        path: page(token),
        headers: {},
        expected: [405, '31'],
      })),
    // A malformed escape is sent to the same path with it escaped (src/proxy.ts), where it is an unknown token.
    fc.constantFrom('%E0%A4%A', '%', '%zz', `${target.payer.cancelled}%`).map((segment): Draft => ({
      category: 'malformed escape',
      detail: segment,
      path: `/pay/${segment}/${action}`,
      headers: FORM,
      body: Buffer.from(''),
      expected: { status: 308, location: new RegExp(`^/pay/[^/?]+/${action}$`) },
    })),
  );
}

export function payerRequests(target: FuzzTarget): fc.Arbitrary<FuzzRequest> {
  return fc
    .oneof(
      endpoint('POST /pay/{token}/pay', 'POST', '', postDrafts(target, 'pay')),
      endpoint('POST /pay/{token}/abandon', 'POST', '', postDrafts(target, 'abandon')),
    )
    .map((item) => ({ ...item, cookieless: true }));
}
