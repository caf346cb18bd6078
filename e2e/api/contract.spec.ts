import { tokenFor } from '../support/api-client';
import { checkedRequest, contractOf, exchangeOf, expect, test } from '../support/contract';
import { Contract, type Exchange, type OpenApiDocument } from '../support/openapi-contract';
import { API_VERSION, BASE_URL, ORIGIN, createMerchant } from '../support/service';

// The contract checker itself: it must catch what it exists to catch, or the whole API suite's
// contract check proves nothing.

const META = {
  status: {
    code: '10',
    message_ilgn: [
      { locale: 'es-PE', value: 'x' },
      { locale: 'en-US', value: 'y' },
    ],
  },
};

function exchange(method: string, path: string, status: number, body: unknown, headers: Record<string, string> = {}): Exchange {
  return {
    method,
    url: `${ORIGIN}${path}`,
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'r-1', ...headers },
    body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
  };
}

const envelope = (success: string | boolean) => ({ success, meta: META, errors: [{ field: 'a', code: 'c', message: 'm' }] });

test('an answer the document describes passes; a wrong body, status, content type or header is a violation', async () => {
  const contract = await contractOf();
  expect(contract.check(exchange('POST', '/api/charges', 400, envelope('false')))).toEqual([]);
  expect(
    contract.check(exchange('GET', '/api/refund?state=X', 401, envelope('false'), { 'www-authenticate': 'Bearer realm="pay"' })),
  ).toEqual([]);

  const wrongBody = contract.check(exchange('POST', '/api/charges', 200, { success: 'true', action: 'authorize' }));
  expect(wrongBody).toHaveLength(1);
  expect(wrongBody[0]).toContain("must have required property 'merchant_code'");
  // The boolean envelope on an endpoint whose success is a string.
  expect(contract.check(exchange('POST', '/api/refund', 400, envelope(false)))[0]).toContain('/success');
  // A field the envelope does not have.
  expect(contract.check(exchange('DELETE', '/api/charges/M1/op-1', 404, { ...envelope(false), stack: 'at x' }))[0]).toContain(
    'must NOT have additional properties',
  );
  expect(contract.check(exchange('GET', '/api/refund', 418, envelope('false')))).toEqual([
    'status 418 is not documented (documented: 200, 400, 401, 403, 405, 429, 500, 503)',
  ]);
  expect(contract.check(exchange('GET', '/api/refund', 400, '<html></html>', { 'content-type': 'text/html' }))[0]).toContain(
    'content type "text/html" is not documented',
  );
  expect(contract.check(exchange('GET', '/api/refund', 400, '{"success":', {}))[0]).toContain('the body is not JSON');
  expect(contract.check(exchange('GET', '/api/refund', 429, envelope('false')))).toEqual([
    'required header Retry-After is missing',
  ]);
  expect(contract.check(exchange('GET', '/api/refund', 429, envelope('false'), { 'retry-after': 'soon' }))).toEqual([
    'header Retry-After "soon" is not an integer',
  ]);
  expect(contract.check(exchange('POST', '/oauth/token', 200, { access_token: 'x' }))[0]).toContain('does not match the schema');
});

test('paths and methods the document does not describe must be 404 and 405 (with Allow) in the envelope', async () => {
  const contract = await contractOf();
  expect(contract.check(exchange('GET', '/api/nope', 404, envelope(false)))).toEqual([]);
  expect(contract.check(exchange('GET', '/api/nope', 200, { ok: true }))).toEqual([
    'a path the document does not describe: expected 404, got 200',
  ]);
  expect(contract.check(exchange('PUT', '/api/refund', 405, envelope(false), { allow: 'GET, HEAD, POST, OPTIONS' }))).toEqual([]);
  expect(contract.check(exchange('PUT', '/api/refund', 405, envelope(false), { allow: 'GET, POST' }))).toEqual([
    'Allow is "GET, POST", expected GET, HEAD, OPTIONS, POST',
  ]);
  expect(contract.check(exchange('OPTIONS', '/oauth/token', 204, '', { allow: 'POST, OPTIONS' }))).toEqual([]);
  expect(contract.check(exchange('OPTIONS', '/oauth/token', 200, '', { allow: 'POST' }))).toEqual([
    'OPTIONS answered 200, not 204',
    'Allow is "POST", expected OPTIONS, POST',
  ]);
  expect(contract.check(exchange('GET', '/oauth/token', 404, envelope(false)))[0]).toBe(
    'GET is not documented on /token: expected 405, got 404',
  );
  // Not the integrator interface: left alone.
  expect(contract.check(exchange('GET', '/api/health', 503, 'down', { 'content-type': 'text/plain' }))).toEqual([]);
  expect(contract.check(exchange('GET', '/pay/abc', 200, '<html>', { 'content-type': 'text/html' }))).toEqual([]);
});

test('the request fixture records a real answer the document does not describe', async ({ request }) => {
  const served = await contractOf();
  // The same document without the 404 of the transaction query.
  const document = structuredClone<OpenApiDocument>(served.document);
  const query = document.paths['/charges/{merchant_code}/{merchant_operation_number}/{transaction_id}']!.get as {
    responses: Record<string, unknown>;
  };
  delete query.responses['404'];
  const stricter = new Contract(document);
  const violations: string[] = [];
  const checked = checkedRequest(request, async (method, response) => {
    const problems = stricter.check(await exchangeOf(method, response));
    if (problems.length > 0) violations.push(problems.join(' | '));
  });
  const merchant = await createMerchant('CTR');
  const token = await tokenFor(checked, merchant);
  const response = await checked.get(`${BASE_URL}/charges/${merchant.code}/op-1/${crypto.randomUUID()}`, {
    headers: { Authorization: `Bearer ${token}`, 'ALG-API-VERSION': API_VERSION },
  });
  expect(response.status()).toBe(404);
  expect(violations).toEqual(['status 404 is not documented (documented: 200, 400, 401, 403, 405, 429, 500, 503)']);
  // The served document has it: the suite's own fixture found nothing.
  expect(served.check(await exchangeOf('GET', response))).toEqual([]);
});
