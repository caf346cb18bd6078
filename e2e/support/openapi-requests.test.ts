import { beforeAll, describe, expect, it } from 'vitest';
import { Contract, type OpenApiDocument } from './openapi-contract';
import { RequestContract } from './openapi-requests';

// The request side of the document as the fuzz suite and the examples spec use it, on the
// document the service builds: what it refuses (so a server 400 there is explained), and what it
// lets through (so a server 400 there must name a described rule).

const ORIGIN = 'https://sandbox.pagos.pe';
const JSON_HEADERS = { 'content-type': 'application/json', 'alg-api-version': '1709847567' };

let requests: RequestContract;

beforeAll(async () => {
  process.env.PUBLIC_ORIGIN = ORIGIN;
  const { openApiDocument } = await import('@/server/api/openapi/document');
  requests = new RequestContract(new Contract(openApiDocument() as unknown as OpenApiDocument));
});

const card = { pan: '4111111111111111', expiry_date: '1230', security_code: '123' };

function charge(
  method: Record<string, unknown> = { method_name: 'CARD', method_details: card },
  extra: Record<string, unknown> = {},
) {
  return {
    action: 'authorize',
    channel: 'ecommerce',
    merchant_code: 'M1',
    merchant_operation_number: 'op-1',
    payment_method: method,
    payment_details: { amount: '1000', currency: '840', billing: {}, shipping: {}, customer: {}, product_details: [] },
    ...extra,
  };
}

function chargeProblems(body: unknown): string[] {
  return requests.problems({
    method: 'POST',
    url: `${ORIGIN}/api/charges`,
    headers: JSON_HEADERS,
    body: Buffer.from(JSON.stringify(body)),
  });
}

function queryProblems(path: string): string[] {
  return requests.problems({ method: 'GET', url: `${ORIGIN}/api${path}`, headers: JSON_HEADERS });
}

describe('the document refuses what the server refuses', () => {
  it('allows a valid CARD charge', () => {
    expect(chargeProblems(charge())).toEqual([]);
  });

  it.each([
    ['an unknown top-level member', charge(undefined, { extra: 1 })],
    ['a PAN failing the Luhn check', charge({ method_name: 'CARD', method_details: { ...card, pan: '4111111111111112' } })],
    ['a PAN of no known brand', charge({ method_name: 'CARD', method_details: { ...card, pan: '9111111111111119' } })],
    ['a 4-digit code on a Visa', charge({ method_name: 'CARD', method_details: { ...card, security_code: '1234' } })],
    ['a 3-digit code on an Amex', charge({ method_name: 'CARD', method_details: { ...card, pan: '378282246310005' } })],
    ['a callback URL that is not http(s)', charge({ method_name: 'QR', method_details: { callback_url: 'ftp://x.example/a' } })],
    ['a relative callback URL', charge({ method_name: 'QR', method_details: { callback_url: '/callbacks' } })],
    ['text with an unpaired surrogate', charge(undefined, { merchant_operation_number: 'op-\ud800' })],
  ])('refuses %s', (_, body) => {
    expect(chargeProblems(body)).not.toEqual([]);
  });

  it('refuses YAPE and QR in USD, and takes them in PEN', () => {
    const qr = { method_name: 'QR', method_details: {} };
    expect(chargeProblems(charge(qr))).not.toEqual([]);
    const pen = charge(qr);
    pen.payment_details.currency = '604';
    expect(chargeProblems(pen)).toEqual([]);
  });

  it('takes an Amex with a 4-digit code', () => {
    expect(
      chargeProblems(charge({ method_name: 'CARD', method_details: { ...card, pan: '378282246310005', security_code: '1234' } })),
    ).toEqual([]);
  });

  it('refuses a BOM before the JSON and a member named twice', () => {
    const text = JSON.stringify(charge());
    const sent = (body: string) => ({
      method: 'POST',
      url: `${ORIGIN}/api/charges`,
      headers: JSON_HEADERS,
      body: Buffer.from(body),
    });
    expect(requests.problems(sent(`\ufeff${text}`))).not.toEqual([]);
    expect(requests.problems(sent(text.replace('"channel"', '"action":"authorize","channel"')))).not.toEqual([]);
  });

  it.each(['?limit=501', '?limit=0', '?start_date=2026-02-30', '?other=1', '?limit=5&limit=6', '?state=DONE'])(
    'refuses GET /refund%s',
    (query) => {
      expect(queryProblems(`/refund${query}`)).not.toEqual([]);
    },
  );

  it.each(['', '?limit=500', '?limit=1&start_date=2028-02-29&end_date=2028-03-01'])('allows GET /refund%s', (query) => {
    expect(queryProblems(`/refund${query}`)).toEqual([]);
  });

  it('allows a missing ALG-API-VERSION (the default) and refuses an unsupported one', () => {
    const url = `${ORIGIN}/api/refund`;
    expect(requests.problems({ method: 'GET', url, headers: {} })).toEqual([]);
    expect(requests.problems({ method: 'GET', url, headers: { 'alg-api-version': '2' } })).not.toEqual([]);
    const form = 'grant_type=client_credentials&client_id=a&client_secret=b';
    const token = { method: 'POST', url: `${ORIGIN}/oauth/token`, body: Buffer.from(form) };
    expect(requests.problems({ ...token, headers: { 'content-type': 'application/x-www-form-urlencoded' } })).toEqual([]);
    expect(
      requests.problems({ ...token, headers: { 'content-type': 'application/x-www-form-urlencoded', 'alg-api-version': '2' } }),
    ).not.toEqual([]);
  });

  it("allows any URI as the token request's audience, refusing what is not one; its value is a described rule", () => {
    const url = `${ORIGIN}/oauth/token`;
    const headers = { 'content-type': 'application/x-www-form-urlencoded' };
    const form = (audience: string) =>
      Buffer.from(
        new URLSearchParams({ grant_type: 'client_credentials', client_id: 'a', client_secret: 'b', audience }).toString(),
      );
    const other = { method: 'POST', url, headers, body: form('https://pay.other.test/api/') };
    expect(requests.problems(other)).toEqual([]);
    expect(requests.problems({ ...other, body: form('not a uri') })).not.toEqual([]);
    const refusal = JSON.stringify({ errors: [{ field: 'audience', code: 'invalid_request', message: 'x' }] });
    expect(requests.refusalProblems(other, refusal)).toEqual([]);
  });

  it('finds the token endpoint under both of its servers', () => {
    const form = 'grant_type=client_credentials&client_id=a&client_secret=b';
    const headers = { 'content-type': 'application/x-www-form-urlencoded', 'alg-api-version': '1709847567' };
    for (const url of [`${ORIGIN}/oauth/token`, `${ORIGIN}/api/token`]) {
      expect(requests.problems({ method: 'POST', url, headers, body: Buffer.from(form) })).toEqual([]);
      expect(requests.problems({ method: 'POST', url, headers, body: Buffer.from(`${form}&client_id=c`) })).not.toEqual([]);
    }
  });
});

describe('a 400 to a request the document allows', () => {
  const allowed = { method: 'GET', url: `${ORIGIN}/api/refund?start_date=2026-03-01&end_date=2026-02-01`, headers: JSON_HEADERS };
  const answer = (field: string) => JSON.stringify({ errors: [{ field, code: 'custom', message: 'x' }] });

  it('is explained when every field it names is under a described rule', () => {
    expect(requests.refusalProblems(allowed, answer('start_date'))).toEqual([]);
  });

  it('is a problem when it names a field no rule describes, or none', () => {
    expect(requests.refusalProblems(allowed, answer('state'))).toHaveLength(1);
    expect(requests.refusalProblems(allowed, '{"errors":[]}')).toHaveLength(1);
  });

  it('is no problem of the document when the document refuses the request too', () => {
    const refused = { ...allowed, url: `${ORIGIN}/api/refund?limit=501` };
    expect(requests.refusalProblems(refused, answer('limit'))).toEqual([]);
  });
});
