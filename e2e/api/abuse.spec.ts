import { chargeBody, headers, operationNumber, tokenFor, refundBody, refundItem } from '../support/api-client';
import { contractOf, expect, test } from '../support/contract';
import {
  API_VERSION,
  ASYNC_ORIGIN,
  ASYNC_PORT,
  AUTH_URL,
  BASE_URL,
  createMerchant,
  merchantFootprint,
  settleNow,
} from '../support/service';
import { chargeOne, expectError, postToken, tokenRequestBody } from './auth-helpers';

// Abuse of the transport (docs/DESIGN.md 4 and 10): brute force on the token endpoint, the
// per-credential rate limit, bodies over 64 KiB on every POST endpoint, hostile nesting.

const MAX_BODY = 64 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A fresh address of a documentation range (the limits are per address; the first of the list counts). */
function testAddress(range: '203.0.113' | '192.0.2'): string {
  return `${range}.${1 + Math.floor(Math.random() * 254)}, 10.0.0.1`;
}

type Answer = { status: number; retryAfter?: string; code?: string; error?: string };

async function answerOf(response: {
  status(): number;
  headers(): Record<string, string>;
  json(): Promise<unknown>;
}): Promise<Answer> {
  const body = (await response.json()) as { meta?: { status?: { code?: string } }; error?: string };
  return {
    status: response.status(),
    retryAfter: response.headers()['retry-after'],
    code: body.meta?.status?.code,
    error: body.error,
  };
}

function expectThrottled(answer: Answer): number {
  expect(answer).toMatchObject({ status: 429, code: '50' });
  expect(answer.retryAfter).toMatch(/^[1-9][0-9]*$/);
  return Number(answer.retryAfter);
}

test.describe('token endpoint brute force (TOKEN_RATE_PER_CLIENT 5/s, burst 10)', () => {
  test('guessing one client’s secret from many addresses: 429 50 after the burst, the right secret too, until Retry-After', async ({
    request,
  }) => {
    const merchant = await createMerchant('ABC');
    // 100 attempts at once, each from its own address (only the client's bucket is shared); every
    // fourth one has the right secret. So many that, even on a loaded machine where the bucket
    // refills while they arrive, some with the right secret are throttled.
    const secrets = Array.from({ length: 100 }, (_, index) => (index % 4 === 3 ? merchant.clientSecret : `wrong-${index}`));
    const started = Date.now();
    const answers = await Promise.all(
      secrets.map(async (secret, index) =>
        answerOf(
          await postToken(request, tokenRequestBody(merchant, { client_secret: secret }), { address: `198.51.100.${index + 1}` }),
        ),
      ),
    );
    const seconds = (Date.now() - started) / 1000;
    const throttled = answers.filter((answer) => answer.status === 429);
    // No more get through than the burst and what refilled meanwhile.
    expect(answers.length - throttled.length, JSON.stringify(answers)).toBeLessThanOrEqual(10 + Math.ceil(5 * seconds) + 1);
    for (const answer of throttled) {
      expectThrottled(answer);
      expect(answer.error).toBe('temporarily_unavailable');
    }
    answers.forEach((answer, index) => {
      if (answer.status === 429) return;
      if (secrets[index] === merchant.clientSecret) expect(answer.status).toBe(200);
      else expect(answer).toMatchObject({ status: 401, code: '22', error: 'invalid_client' });
    });
    // The right secret waits too: the limit is the client's, whatever the address.
    expect(
      answers.filter((answer, index) => answer.status === 429 && secrets[index] === merchant.clientSecret).length,
    ).toBeGreaterThan(0);
    await sleep(Math.max(...throttled.map((answer) => Number(answer.retryAfter))) * 1000 + 250);
    const response = await postToken(request, tokenRequestBody(merchant), { address: '198.51.100.201' });
    expect(response.status(), await response.text()).toBe(200);
  });
});

test.describe('token endpoint flood from one address', () => {
  // On the asynchronous suite's service (TOKEN_RATE_PER_ADDRESS 30/s, burst 60: playwright.config.ts):
  // the API service allows 200/s for its own suite, more than this machine can send.
  test('one address gets 429 50 with Retry-After once its bucket is empty; other addresses are not held back', async ({
    request,
  }) => {
    const address = testAddress('203.0.113');
    const merchant = await createMerchant('ABA', undefined, { port: ASYNC_PORT });
    const body = tokenRequestBody(merchant, { audience: `${ASYNC_ORIGIN}/api/` });
    // Cheap requests (no client_id: no per-client bucket, no secret hashing) until one is throttled.
    let throttled: Answer | undefined;
    let sent = 0;
    while (!throttled && sent < 2_000) {
      const batch = await Promise.all(
        Array.from({ length: 40 }, async () =>
          answerOf(await postToken(request, { action: 'authorize' }, { address, origin: ASYNC_ORIGIN })),
        ),
      );
      sent += batch.length;
      for (const answer of batch) expect([400, 429], JSON.stringify(answer)).toContain(answer.status);
      throttled = batch.find((answer) => answer.status === 429);
    }
    expect(sent).toBeGreaterThan(60);
    const wait = expectThrottled(throttled!);
    expect(throttled!.error).toBe('temporarily_unavailable');
    // Meanwhile another address gets its token.
    const elsewhere = await postToken(request, body, { address: testAddress('192.0.2'), origin: ASYNC_ORIGIN });
    expect(elsewhere.status(), await elsewhere.text()).toBe(200);
    await sleep(wait * 1000 + 250);
    const again = await postToken(request, body, { address, origin: ASYNC_ORIGIN });
    expect(again.status(), await again.text()).toBe(200);
  });
});

test('a credential over its own API rate (1/s, burst 2) gets 429 50 with Retry-After, then is served again', async ({
  request,
}) => {
  const merchant = await createMerchant('ABR', undefined, { rateLimitPerSecond: 1 });
  const token = await tokenFor(request, merchant);
  const answers = await Promise.all(
    Array.from({ length: 6 }, async () => request.get(`${BASE_URL}/refund`, { headers: headers(token) })),
  );
  const statuses = answers.map((response) => response.status());
  expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(2);
  const throttled = answers.filter((response) => response.status() === 429);
  expect(throttled.length, JSON.stringify(statuses)).toBeGreaterThanOrEqual(3);
  let wait = 0;
  for (const response of throttled) {
    await expectError(response, 429, '50', 'string');
    wait = Math.max(wait, Number(response.headers()['retry-after']));
  }
  expect(wait).toBeGreaterThanOrEqual(1);
  await sleep(wait * 1000 + 250);
  expect((await request.get(`${BASE_URL}/refund`, { headers: headers(token) })).status()).toBe(200);
});

test.describe('bodies over 64 KiB (413 51) on every POST endpoint', () => {
  test('with Content-Length and chunked, authorized or not: 413 51 in the envelope, nothing stored', async ({ request }) => {
    const merchant = await createMerchant('ABS');
    const token = await tokenFor(request, merchant);
    const settled = await chargeOne(request, token, merchant.code, 'CARD');
    expect(await settleNow(merchant.code)).toBe(1);
    const before = await merchantFootprint(merchant.code);
    const number = operationNumber('big');
    const pad = (body: object) => {
      const text = JSON.stringify(body);
      return Buffer.from(`${text}${' '.repeat(MAX_BODY + 1 - Buffer.byteLength(text))}`);
    };
    const json = { ...headers(token), 'Content-Type': 'application/json' };
    const cases = [
      { url: `${BASE_URL}/charges`, success: 'string', headers: json, body: pad(chargeBody(merchant.code, number, 'CARD')) },
      {
        url: `${BASE_URL}/refund`,
        success: 'string',
        headers: json,
        body: pad(refundBody(merchant.code, [refundItem(settled.number, settled.transactionId)])),
      },
      {
        url: `${AUTH_URL}/token`,
        success: 'boolean',
        headers: { 'ALG-API-VERSION': API_VERSION, 'Content-Type': 'application/json' },
        body: pad(tokenRequestBody(merchant)),
      },
      {
        url: `${AUTH_URL}/token`,
        success: 'boolean',
        headers: { 'ALG-API-VERSION': API_VERSION, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: Buffer.from(`${new URLSearchParams(tokenRequestBody(merchant)).toString()}&pad=${'p'.repeat(MAX_BODY)}`),
      },
    ] as const;
    const contract = await contractOf();
    for (const item of cases) {
      expect(item.body.length).toBeGreaterThan(MAX_BODY);
      await test.step(`${item.url} ${item.headers['Content-Type']} with Content-Length`, async () => {
        await expectError(await request.post(item.url, { headers: item.headers, data: item.body }), 413, '51', item.success);
      });
      await test.step(`${item.url} ${item.headers['Content-Type']} chunked`, async () => {
        // Streamed without Content-Length: the service counts what it reads.
        const chunks = [item.body.subarray(0, 8_192), item.body.subarray(8_192)];
        const response = await fetch(item.url, {
          method: 'POST',
          headers: item.headers,
          body: new ReadableStream<Uint8Array>({
            pull(controller) {
              const next = chunks.shift();
              if (next) controller.enqueue(next);
              else controller.close();
            },
          }),
          duplex: 'half',
        } as RequestInit & { duplex: 'half' });
        const body = Buffer.from(await response.arrayBuffer());
        const exchange = {
          method: 'POST',
          url: item.url,
          status: response.status,
          headers: Object.fromEntries(response.headers),
          body,
        };
        expect(contract.check(exchange)).toEqual([]);
        expect(response.status).toBe(413);
        expect((JSON.parse(body.toString()) as { meta: { status: { code: string } } }).meta.status.code).toBe('51');
      });
    }
    expect(await merchantFootprint(merchant.code)).toEqual(before);
  });
});

test('product_details nested past 32 levels is 400 10, not a stack overflow; 32 levels are accepted', async ({ request }) => {
  const merchant = await createMerchant('ABN');
  const token = await tokenFor(request, merchant);
  const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
  const send = async (depth: number) => {
    const body = chargeBody(merchant.code, operationNumber('deep'), 'QR');
    const text = JSON.stringify(body).replace('"product_details":[', `"product_details":[{"nested":${nested(depth)}},`);
    return request.post(`${BASE_URL}/charges`, {
      headers: { ...headers(token), 'Content-Type': 'application/json' },
      data: Buffer.from(text),
    });
  };
  for (const depth of [33, 5_000, 30_000]) {
    const body = await expectError(await send(depth), 400, '10', 'string');
    expect(body.errors).toEqual([
      { field: 'payment_details.product_details[0]', code: 'custom', message: 'must nest at most 32 levels' },
    ]);
  }
  expect((await send(31)).status()).toBe(200);
  expect((await merchantFootprint(merchant.code)).transactions).toHaveLength(1);
});

test('percent-encoded path segments are read decoded, once: an encoded operation number finds its operation', async ({
  request,
}) => {
  const merchant = await createMerchant('ABP');
  const token = await tokenFor(request, merchant);
  const charged = await chargeOne(request, token, merchant.code, 'CARD', { number: `enc-${operationNumber('p')}` });
  const encode = (text: string) =>
    [...text].map((char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('');
  const found = await request.get(
    `${BASE_URL}/charges/${encode(merchant.code)}/${encode(charged.number)}/${charged.transactionId}`,
    {
      headers: headers(token),
    },
  );
  expect(found.status(), await found.text()).toBe(200);
  expect(((await found.json()) as { operation: { merchant_operation_number: string } }).operation.merchant_operation_number).toBe(
    charged.number,
  );
  // Decoded once: an encoded percent sign stays a percent sign, which no operation number has.
  const twice = encodeURIComponent(encode(charged.number));
  await expectError(
    await request.get(`${BASE_URL}/refund/${merchant.code}/${twice}`, { headers: headers(token) }),
    400,
    '10',
    'string',
  );
  for (const segment of ['a%2Fb', '%00', '%25']) {
    await expectError(
      await request.delete(`${BASE_URL}/charges/${merchant.code}/${segment}`, { headers: headers(token) }),
      400,
      '10',
      'boolean',
    );
  }
});

test('a path with a malformed percent-escape is read as sent: 400 10 on its field, 404 30 for no such path', async ({
  request,
}) => {
  // Next alone answers these with a bare 500 (vercel/next.js#94278); src/proxy.ts escapes them.
  const merchant = await createMerchant('ABM');
  const token = await tokenFor(request, merchant);
  const charged = await chargeOne(request, token, merchant.code, 'CARD');
  for (const segment of ['%E0%A4%A', '%zz', `${charged.number}%`]) {
    await expectError(
      await request.delete(`${BASE_URL}/charges/${merchant.code}/${segment}`, { headers: headers(token) }),
      400,
      '10',
      'boolean',
    );
    await expectError(
      await request.get(`${BASE_URL}/refund/${merchant.code}/${segment}`, { headers: headers(token) }),
      400,
      '10',
      'string',
    );
  }
  for (const url of [`${BASE_URL}/charges/%E0%A4%A`, `${BASE_URL}/%zz`, `${AUTH_URL}/token%zz`]) {
    await expectError(await request.get(url, { headers: headers(token) }), 404, '30', 'boolean');
  }
  // Nothing was cancelled by the requests that named the operation with a stray `%`.
  expect((await merchantFootprint(merchant.code)).transactions).toEqual([
    expect.objectContaining({ number: charged.number, state: 'AUTORIZADO' }),
  ]);
});
