import { expect, test } from '../support/contract';
import { type APIResponse } from '@playwright/test';
import { charge, chargeBody, headers, operationNumber, tokenFor, refund, refundBody, refundItem } from '../support/api-client';
import { API_VERSION, AUTH_URL, BASE_URL, ORIGIN, createMerchant, storedOperation } from '../support/service';
import { internalsIn } from '../support/leaks';
import { chargeOne, expectError, expectUnauthenticated } from './auth-helpers';

// Transport rules of docs/DESIGN.md 3, 4 and 10: size, content type, check order, paths, methods,
// request ids, Idempotency-Key and what error bodies never contain.

const BIG = 64 * 1024;

function oversizedCharge(merchantCode: string) {
  const body = chargeBody(merchantCode, operationNumber('big'), 'CARD');
  return { ...body, payment_details: { ...body.payment_details, product_details: [{ sku: 'X', name: 'x'.repeat(BIG) }] } };
}

function raw(text: string): Buffer {
  return Buffer.from(text, 'utf8');
}

test.describe('body size and content type', () => {
  test('a body over 64 KiB is 413 51, before JSON, version and token checks', async ({ request }) => {
    const merchant = await createMerchant('PRS');
    const token = await tokenFor(request, merchant);
    const body = oversizedCharge(merchant.code);
    expect(JSON.stringify(body).length).toBeGreaterThan(BIG);
    const refused = await charge(request, token, body);
    await expectError(refused, 413, '51', 'string');
    expect(refused.headers()['connection']).toBe('close');
    // No token, no version, not even JSON: the size answers first.
    await expectError(
      await request.post(`${BASE_URL}/charges`, { headers: { 'Content-Type': 'text/plain' }, data: raw('x'.repeat(BIG + 1)) }),
      413,
      '51',
      'string',
    );
    await expectError(
      await request.post(`${BASE_URL}/refund`, {
        headers: { 'Content-Type': 'application/json' },
        data: raw(`"${'y'.repeat(BIG)}"`),
      }),
      413,
      '51',
      'string',
    );
    await expectError(
      await request.post(`${AUTH_URL}/token`, { headers: { 'ALG-API-VERSION': API_VERSION }, data: { pad: 'z'.repeat(BIG) } }),
      413,
      '51',
      'boolean',
    );
    // Exactly 64 KiB is not too large (it fails later, on validation).
    const padding = BIG - JSON.stringify({ merchant_code: merchant.code, operations: [], pad: '' }).length;
    const exact = JSON.stringify({ merchant_code: merchant.code, operations: [], pad: 'p'.repeat(padding) });
    expect(Buffer.byteLength(exact)).toBe(BIG);
    await expectError(
      await request.post(`${BASE_URL}/refund`, {
        headers: { ...headers(token), 'Content-Type': 'application/json' },
        data: raw(exact),
      }),
      400,
      '10',
      'string',
    );
  });

  test('a chunked body over 64 KiB without Content-Length is 413 51', async () => {
    const merchant = await createMerchant('PRC');
    const chunk = new TextEncoder().encode('a'.repeat(8 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 10) return controller.close();
        sent += 1;
        controller.enqueue(chunk);
      },
    });
    const response = await fetch(`${BASE_URL}/charges`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'ALG-API-VERSION': API_VERSION },
      body: stream,
      duplex: 'half',
    } as RequestInit & { duplex: 'half' });
    expect(response.status).toBe(413);
    // The rest of the body is never read: the connection must not carry another request.
    expect(response.headers.get('connection')).toBe('close');
    const body = (await response.json()) as { success: string; meta: { status: { code: string } } };
    expect(body.success).toBe('false');
    expect(body.meta.status.code).toBe('51');
    expect(merchant.code.length).toBeGreaterThan(0);
  });

  test('malformed JSON is 400 12', async ({ request }) => {
    const merchant = await createMerchant('PRJ');
    const token = await tokenFor(request, merchant);
    for (const text of ['{"action":"authorize",', '', 'null x', "{'a':1}"]) {
      for (const url of [`${BASE_URL}/charges`, `${BASE_URL}/refund`]) {
        await expectError(
          await request.post(url, { headers: { ...headers(token), 'Content-Type': 'application/json' }, data: raw(text) }),
          400,
          '12',
          'string',
        );
      }
    }
  });

  test('a body that is not sent as application/json is 400 12', async ({ request }) => {
    const merchant = await createMerchant('PRT');
    const token = await tokenFor(request, merchant);
    const json = JSON.stringify(chargeBody(merchant.code, operationNumber('ct'), 'CARD'));
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      await expectError(
        await request.post(`${BASE_URL}/charges`, {
          headers: { ...headers(token), 'Content-Type': contentType },
          data: raw(json),
        }),
        400,
        '12',
        'string',
      );
    }
    // With a charset parameter it is still JSON.
    const ok = await request.post(`${BASE_URL}/charges`, {
      headers: { ...headers(token), 'Content-Type': 'application/json; charset=utf-8' },
      data: raw(json),
    });
    expect(ok.status(), await ok.text()).toBe(200);
  });
});

test.describe('order of checks (docs/DESIGN.md 3)', () => {
  test('malformed JSON without a token is 400 12, not 401', async ({ request }) => {
    await expectError(
      await request.post(`${BASE_URL}/charges`, { headers: { 'Content-Type': 'application/json' }, data: raw('{oops') }),
      400,
      '12',
      'string',
    );
    await expectError(
      await request.post(`${BASE_URL}/refund`, {
        headers: { 'Content-Type': 'text/plain', Authorization: 'Bearer not.a.token' },
        data: raw('{}'),
      }),
      400,
      '12',
      'string',
    );
  });

  test('an unknown ALG-API-VERSION with a bad token is 400 11, not 401; a missing one is the default, so 401', async ({
    request,
  }) => {
    const merchant = await createMerchant('PRV');
    const bad = { Authorization: 'Bearer not.a.token', 'ALG-API-VERSION': '1' };
    await expectError(
      await request.post(`${BASE_URL}/charges`, { headers: bad, data: chargeBody(merchant.code, operationNumber('v'), 'CARD') }),
      400,
      '11',
      'string',
    );
    await expectError(await request.get(`${BASE_URL}/refund`, { headers: bad }), 400, '11', 'string');
    await expectError(await request.delete(`${BASE_URL}/charges/${merchant.code}/x-1`, { headers: bad }), 400, '11', 'boolean');
    const unversioned = { Authorization: 'Bearer not.a.token' };
    await expectUnauthenticated(await request.get(`${BASE_URL}/refund`, { headers: unversioned }), 'string');
    await expectUnauthenticated(
      await request.delete(`${BASE_URL}/charges/${merchant.code}/x-1`, { headers: unversioned }),
      'boolean',
    );
  });

  test('without ALG-API-VERSION every operation is served with the default version', async ({ request }) => {
    const merchant = await createMerchant('PRD');
    const auth = { Authorization: `Bearer ${await tokenFor(request, merchant)}` };
    const number = operationNumber('d');
    const charged = await request.post(`${BASE_URL}/charges`, { headers: auth, data: chargeBody(merchant.code, number, 'CARD') });
    expect(charged.status(), await charged.text()).toBe(200);
    const transactionId = ((await charged.json()) as { transaction: { transaction_id: string } }).transaction.transaction_id;
    for (const response of [
      await request.get(`${BASE_URL}/charges/${merchant.code}/${number}/${transactionId}`, { headers: auth }),
      await request.get(`${BASE_URL}/refund?merchant_code=${merchant.code}`, { headers: auth }),
      await request.get(`${BASE_URL}/refund/${merchant.code}/${number}`, { headers: auth }),
      await request.delete(`${BASE_URL}/charges/${merchant.code}/${number}`, { headers: auth }),
    ]) {
      expect([200, 404], `${response.url()} ${await response.text()}`).toContain(response.status());
      expect(((await response.json()) as { meta?: { status: { code: string } } }).meta?.status.code).not.toBe('11');
    }
  });

  test('a bad token with an invalid body is 401 20, not 400', async ({ request }) => {
    const bad = { Authorization: 'Bearer not.a.token', 'ALG-API-VERSION': API_VERSION };
    await expectUnauthenticated(await request.post(`${BASE_URL}/charges`, { headers: bad, data: { nonsense: true } }), 'string');
    await expectUnauthenticated(await request.post(`${BASE_URL}/refund`, { headers: bad, data: { operations: 'x' } }), 'string');
    await expectUnauthenticated(await request.get(`${BASE_URL}/refund?limit=0&state=nope`, { headers: bad }), 'string');
    await expectUnauthenticated(await request.get(`${BASE_URL}/charges/bad code!/x/y`, { headers: bad }), 'boolean');
  });

  test('scope before validation, validation before merchant, merchant before existence', async ({ request }) => {
    const merchant = await createMerchant('PRO');
    const other = await createMerchant('PROO');
    const readOnly = await tokenFor(request, merchant, 'create:token get:charges');
    const token = await tokenFor(request, merchant);
    // Missing scope with an invalid body: 403.
    await expectError(await charge(request, readOnly, { nonsense: true }), 403, '21', 'string');
    // Invalid body naming another merchant: 400.
    await expectError(
      await charge(request, token, { ...chargeBody(other.code, operationNumber('o'), 'CARD'), extra: 1 }),
      400,
      '10',
      'string',
    );
    // Another merchant and an unknown operation: 403, not 404.
    await expectError(
      await refund(request, token, refundBody(other.code, [refundItem('no-such-op', null)])),
      403,
      '21',
      'string',
    );
    await expectError(
      await request.get(`${BASE_URL}/refund/${other.code}/no-such-op`, { headers: headers(token) }),
      403,
      '21',
      'string',
    );
    // Own merchant, unknown operation: 404.
    await expectError(
      await request.get(`${BASE_URL}/refund/${merchant.code}/no-such-op`, { headers: headers(token) }),
      404,
      '30',
      'string',
    );
  });
});

test.describe('paths and methods', () => {
  test('an unknown path is 404 30 in the envelope', async ({ request }) => {
    for (const path of ['/api/nope', '/api/charges/a', '/api/refund/a/b/c', '/api/chargesx']) {
      const response = await request.get(`${ORIGIN}${path}`, { headers: { 'ALG-API-VERSION': API_VERSION } });
      await expectError(response, 404, '30', 'boolean');
    }
    await expectError(await request.post(`${ORIGIN}/api/nope`, { data: {} }), 404, '30', 'boolean');
    await expectError(await request.get(`${ORIGIN}/oauth/nope`), 404, '30', 'boolean');
  });

  test('a known path with another method is 405 with Allow', async ({ request }) => {
    for (const [method, path, allow] of [
      ['PUT', '/api/charges', ['OPTIONS', 'POST']],
      ['GET', '/api/charges', ['OPTIONS', 'POST']],
      ['DELETE', '/api/charges', ['OPTIONS', 'POST']],
      ['TRACE', '/api/charges', ['OPTIONS', 'POST']],
      ['PATCH', '/api/refund', ['GET', 'HEAD', 'OPTIONS', 'POST']],
      ['DELETE', '/api/refund/M1/op-1', ['GET', 'HEAD', 'OPTIONS']],
      ['POST', '/api/charges/M1/op-1/t-1', ['GET', 'HEAD', 'OPTIONS']],
      ['GET', '/api/charges/M1/op-1', ['DELETE', 'OPTIONS']],
      ['TRACE', '/oauth/token', ['OPTIONS', 'POST']],
      ['PUT', '/oauth/.well-known/jwks.json', ['GET', 'HEAD', 'OPTIONS']],
    ] as const) {
      const response = await request.fetch(`${ORIGIN}${path}`, {
        method,
        headers: { 'ALG-API-VERSION': API_VERSION, 'Content-Type': 'application/json' },
        ...(method === 'GET' || method === 'DELETE' ? {} : { data: {} }),
      });
      await test.step(`${method} ${path}`, async () => {
        await expectError(response, 405, '31', 'boolean');
        const header = response.headers()['allow'] ?? '';
        expect(
          header
            .split(',')
            .map((entry) => entry.trim())
            .sort(),
        ).toEqual([...allow]);
      });
    }
  });
});

test.describe('X-Request-Id', () => {
  test('every API and token response carries X-Request-Id and echoes a sent one', async ({ request }) => {
    const merchant = await createMerchant('PRQ');
    const token = await tokenFor(request, merchant);
    const number = operationNumber('rid');
    const echo = { 'X-Request-Id': 'abc-123' };
    const responses: [string, APIResponse][] = [
      ['POST /charges 200', await charge(request, token, chargeBody(merchant.code, number, 'CARD'), echo)],
      ['POST /charges 400', await charge(request, token, { bad: true }, echo)],
      ['GET /refund 200', await request.get(`${BASE_URL}/refund`, { headers: headers(token, echo) })],
      ['GET /refund 401', await request.get(`${BASE_URL}/refund`, { headers: { 'ALG-API-VERSION': API_VERSION, ...echo } })],
      [
        'GET /charges 404',
        await request.get(`${BASE_URL}/charges/${merchant.code}/none-1/${crypto.randomUUID()}`, {
          headers: headers(token, echo),
        }),
      ],
      ['DELETE 200', await request.delete(`${BASE_URL}/charges/${merchant.code}/${number}`, { headers: headers(token, echo) })],
      ['unknown path 404', await request.get(`${BASE_URL}/nope`, { headers: echo })],
      ['405', await request.put(`${BASE_URL}/charges`, { headers: echo })],
      ['413', await request.post(`${BASE_URL}/charges`, { headers: headers(token, echo), data: oversizedCharge(merchant.code) })],
      [
        'token 200',
        await request.post(`${AUTH_URL}/token`, {
          headers: { 'ALG-API-VERSION': API_VERSION, ...echo },
          data: {
            action: 'authorize',
            grant_type: 'client_credentials',
            audience: `${BASE_URL}/`,
            client_id: merchant.clientId,
            client_secret: merchant.clientSecret,
            scope: 'create:token',
          },
        }),
      ],
      ['token 400', await request.post(`${AUTH_URL}/token`, { headers: echo, data: {} })],
    ];
    for (const [label, response] of responses) {
      await test.step(label, () => {
        expect(response.headers()['x-request-id']).toBe('abc-123');
      });
    }
    // Without one, each response gets its own new id.
    const first = await request.get(`${BASE_URL}/refund`, { headers: headers(token) });
    const second = await request.get(`${BASE_URL}/refund`, { headers: headers(token) });
    const ids = [first.headers()['x-request-id'], second.headers()['x-request-id']];
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9._:-]{8,128}$/);
    expect(ids[0]).not.toBe(ids[1]);
    // A header that is not a sane token is replaced, not echoed.
    const injected = await request.get(`${BASE_URL}/refund`, { headers: headers(token, { 'X-Request-Id': 'a b<script>' }) });
    expect(injected.headers()['x-request-id']).toMatch(/^[A-Za-z0-9._:-]{8,128}$/);
    expect(injected.headers()['x-request-id']).not.toBe('a b<script>');
  });

  test('the public documents carry X-Request-Id too', async ({ request }) => {
    for (const url of [`${BASE_URL}/openapi.json`, `${AUTH_URL}/.well-known/jwks.json`]) {
      const response = await request.get(url, { headers: { 'X-Request-Id': 'abc-123' } });
      await test.step(url, () => {
        expect.soft(response.status()).toBe(200);
        expect.soft(response.headers()['x-request-id']).toBe('abc-123');
      });
    }
  });
});

test.describe('Idempotency-Key on POST /charges', () => {
  test('the same key and body replay the answer; one transaction is stored', async ({ request }) => {
    const merchant = await createMerchant('PRI');
    const token = await tokenFor(request, merchant);
    const number = operationNumber('idem');
    const key = `charge-${crypto.randomUUID()}`;
    const body = chargeBody(merchant.code, number, 'CARD');
    const first = await charge(request, token, body, { 'Idempotency-Key': key });
    expect(first.status()).toBe(200);
    const firstBody = (await first.json()) as { transaction: { transaction_id: string } };
    const second = await charge(request, token, body, { 'Idempotency-Key': key });
    expect(second.status()).toBe(200);
    expect(await second.json()).toEqual(firstBody);
    const stored = await storedOperation(merchant.code, number);
    expect(stored.transactions.map((row) => row.id)).toEqual([firstBody.transaction.transaction_id]);
  });

  test('the same key with another body is 409 40 and stores nothing new', async ({ request }) => {
    const merchant = await createMerchant('PRK');
    const token = await tokenFor(request, merchant);
    const number = operationNumber('idem');
    const otherNumber = operationNumber('idem2');
    const key = `charge-${crypto.randomUUID()}`;
    const first = await charge(request, token, chargeBody(merchant.code, number, 'CARD'), { 'Idempotency-Key': key });
    expect(first.status()).toBe(200);
    const conflict = await expectError<{ errors: { field?: string }[] }>(
      await charge(request, token, chargeBody(merchant.code, otherNumber, 'CARD'), { 'Idempotency-Key': key }),
      409,
      '40',
      'string',
    );
    expect(conflict.errors.map((error) => error.field)).toEqual(['Idempotency-Key']);
    await expect(storedOperation(merchant.code, otherNumber)).rejects.toThrow(/no such operation/);
    expect((await storedOperation(merchant.code, number)).transactions).toHaveLength(1);
    // Keys belong to their merchant: another merchant may use the same key.
    const other = await createMerchant('PRKO');
    const otherToken = await tokenFor(request, other);
    const reused = await charge(request, otherToken, chargeBody(other.code, operationNumber('idem3'), 'CARD'), {
      'Idempotency-Key': key,
    });
    expect(reused.status(), await reused.text()).toBe(200);
  });

  test('a malformed Idempotency-Key is 400 10', async ({ request }) => {
    const merchant = await createMerchant('PRKM');
    const token = await tokenFor(request, merchant);
    const number = operationNumber('idem');
    await expectError(
      await charge(request, token, chargeBody(merchant.code, number, 'CARD'), { 'Idempotency-Key': 'k'.repeat(256) }),
      400,
      '10',
      'string',
    );
    await expect(storedOperation(merchant.code, number)).rejects.toThrow(/no such operation/);
  });
});

test.describe('error bodies hide internals', () => {
  test('no error body shows a stack trace or database internals', async ({ request }) => {
    const merchant = await createMerchant('PRX');
    const token = await tokenFor(request, merchant);
    const charged = await chargeOne(request, token, merchant.code, 'CARD');
    const bodies: [string, APIResponse][] = [
      [
        'malformed JSON',
        await request.post(`${BASE_URL}/charges`, {
          headers: { ...headers(token), 'Content-Type': 'application/json' },
          data: raw('{"a":'),
        }),
      ],
      ['validation', await charge(request, token, { ...chargeBody(merchant.code, 'x', 'CARD'), channel: 'pos' })],
      [
        'bad uuid in path',
        await request.get(`${BASE_URL}/charges/${merchant.code}/${charged.number}/'; DROP TABLE x;--`, {
          headers: headers(token),
        }),
      ],
      ['refund bad uuid', await refund(request, token, refundBody(merchant.code, [refundItem(charged.number, "1' OR '1'='1")]))],
      [
        'refund state',
        await refund(request, token, refundBody(merchant.code, [refundItem(charged.number, charged.transactionId)])),
      ],
      [
        'cursor',
        await request.get(
          `${BASE_URL}/refund?cursor=${Buffer.from('not-a-date|00000000-0000-0000-0000-000000000000').toString('base64url')}`,
          { headers: headers(token) },
        ),
      ],
      ['huge limit', await request.get(`${BASE_URL}/refund?limit=99999999999999999999`, { headers: headers(token) })],
      [
        'bad token',
        await request.get(`${BASE_URL}/refund`, { headers: { 'ALG-API-VERSION': API_VERSION, Authorization: 'Bearer a.b.c' } }),
      ],
      ['oversized', await request.post(`${BASE_URL}/charges`, { headers: headers(token), data: oversizedCharge(merchant.code) })],
      [
        'token malformed',
        await request.post(`${AUTH_URL}/token`, { headers: { 'ALG-API-VERSION': API_VERSION }, data: { client_id: 5 } }),
      ],
    ];
    for (const [label, response] of bodies) {
      const text = await response.text();
      await test.step(label, () => {
        expect(response.status(), text).toBeGreaterThanOrEqual(400);
        expect(response.status(), text).toBeLessThan(500);
        expect(internalsIn(text)).toEqual([]);
        expect(text).not.toContain(merchant.clientSecret);
      });
    }
  });
});
