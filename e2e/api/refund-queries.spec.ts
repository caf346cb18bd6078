import { expect, test } from '../support/contract';
import type { ErrorReply, RefundList, RefundObject } from '../support/api-types';
import { type APIRequestContext } from '@playwright/test';
import { headers, tokenFor, refund, refundBody, refundItem } from '../support/api-client';
import { BASE_URL, createMerchant, settleNow, storedOperation } from '../support/service';
import { chargeOne, expectError, expectMeta, type Charged } from './auth-helpers';

// GET /refund with the filters of docs/DESIGN.md 11 and GET /refund/{merchant_code}/{merchant_operation_number}.

/** A calendar day in America/Lima, `offset` days from today. */
function limaDay(offset = 0): string {
  const instant = new Date(Date.now() + offset * 86_400_000);
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Lima', year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    instant,
  );
}

/**
 * A merchant with three refunds, registered one request at a time (CARD, YAPE, CARD), plus a
 * settled operation without a refund and an authorized one. `refunds` is in creation order.
 */
async function merchantWithRefunds(request: APIRequestContext, prefix: string) {
  const merchant = await createMerchant(prefix);
  const token = await tokenFor(request, merchant);
  const charged: Charged[] = [];
  for (const [method, amount] of [
    ['CARD', '1000'],
    ['YAPE', '2000'],
    ['CARD', '3000'],
    ['CARD', '4000'],
  ] as const) {
    charged.push(await chargeOne(request, token, merchant.code, method, { amount }));
  }
  expect(await settleNow(merchant.code)).toBe(4);
  const authorized = await chargeOne(request, token, merchant.code, 'CARD');
  const refunds: RefundObject[] = [];
  for (const entry of charged.slice(0, 3)) {
    const response = await refund(
      request,
      token,
      refundBody(merchant.code, [refundItem(entry.number, entry.transactionId, entry.amount)]),
    );
    expect(response.status(), await response.text()).toBe(200);
    refunds.push(((await response.json()) as { operations: RefundObject[] }).operations[0]!);
  }
  return { merchant, token, charged, unrefunded: charged[3]!, authorized, refunds };
}

async function list(request: APIRequestContext, token: string, query: Record<string, string>) {
  return request.get(`${BASE_URL}/refund`, { headers: headers(token), params: query });
}

async function expectList(
  response: Awaited<ReturnType<typeof list>>,
  merchantCode: string,
  expected: { count: string; ids: string[] },
): Promise<RefundList> {
  const text = await response.text();
  expect(response.status(), text).toBe(200);
  const body = JSON.parse(text) as RefundList;
  expect(body.success).toBe('true');
  expect(body.merchant_code).toBe(merchantCode);
  expect(body.operations_count).toBe(expected.count);
  expect(body.operations.map((refund) => refund.refund_id)).toEqual(expected.ids);
  expectMeta(body.meta, '00');
  return body;
}

const newestFirst = (refunds: RefundObject[]) => [...refunds].reverse().map((refund) => refund.refund_id);

test.describe('GET /refund filters', () => {
  test('merchant_code (or none) lists every refund of the merchant, newest first, as registered', async ({ request }) => {
    const data = await merchantWithRefunds(request, 'RQM');
    const other = await merchantWithRefunds(request, 'RQO');
    const named = await expectList(await list(request, data.token, { merchant_code: data.merchant.code }), data.merchant.code, {
      count: '3',
      ids: newestFirst(data.refunds),
    });
    // The listed objects are the registered ones (2.10), unchanged.
    expect(named.operations).toEqual([...data.refunds].reverse());
    expect(Object.keys(named).sort()).toEqual([
      'merchant_code',
      'meta',
      'next_cursor',
      'operations',
      'operations_count',
      'success',
    ]);
    expect(named.next_cursor).toBeNull();
    // Without merchant_code the token's merchant is listed; the other merchant's refunds never show.
    await expectList(await list(request, data.token, {}), data.merchant.code, { count: '3', ids: newestFirst(data.refunds) });
    await expectList(await list(request, other.token, {}), other.merchant.code, { count: '3', ids: newestFirst(other.refunds) });
  });

  test('merchant_operation_number and transaction_id select one refund', async ({ request }) => {
    const data = await merchantWithRefunds(request, 'RQN');
    const target = data.refunds[1]!;
    await expectList(
      await list(request, data.token, { merchant_operation_number: target.merchant_operation_number }),
      data.merchant.code,
      {
        count: '1',
        ids: [target.refund_id],
      },
    );
    await expectList(await list(request, data.token, { transaction_id: target.transaction_id }), data.merchant.code, {
      count: '1',
      ids: [target.refund_id],
    });
    await expectList(
      await list(request, data.token, { merchant_code: data.merchant.code, transaction_id: target.transaction_id.toUpperCase() }),
      data.merchant.code,
      { count: '1', ids: [target.refund_id] },
    );
    // An operation without a refund, an unknown one, an unknown transaction: none.
    for (const query of [
      { merchant_operation_number: data.unrefunded.number } as Record<string, string>,
      { merchant_operation_number: 'no-such-operation' },
      { transaction_id: crypto.randomUUID() },
      { transaction_id: data.unrefunded.transactionId },
    ]) {
      await expectList(await list(request, data.token, query), data.merchant.code, { count: '0', ids: [] });
    }
    // Filters combine (AND).
    await expectList(
      await list(request, data.token, {
        merchant_operation_number: target.merchant_operation_number,
        transaction_id: data.refunds[0]!.transaction_id,
      }),
      data.merchant.code,
      { count: '0', ids: [] },
    );
    await expectError(await list(request, data.token, { transaction_id: 'not-a-uuid' }), 400, '10', 'string');
    await expectError(await list(request, data.token, { merchant_operation_number: 'bad number!' }), 400, '10', 'string');
  });

  test('state filters by refund state', async ({ request }) => {
    const data = await merchantWithRefunds(request, 'RQS');
    await expectList(await list(request, data.token, { state: 'REGISTERED' }), data.merchant.code, {
      count: '3',
      ids: newestFirst(data.refunds),
    });
    for (const state of ['RESOLVED', 'IN_PROCESS', 'REJECTED']) {
      await expectList(await list(request, data.token, { state }), data.merchant.code, { count: '0', ids: [] });
    }
    const bad = await expectError<ErrorReply>(await list(request, data.token, { state: 'registered' }), 400, '10', 'string');
    expect(bad.errors.map((error) => error.field)).toEqual(['state']);
  });

  test('start_date and end_date are inclusive days of America/Lima', async ({ request }) => {
    const data = await merchantWithRefunds(request, 'RQD');
    const today = limaDay(0);
    const all = { count: '3', ids: newestFirst(data.refunds) };
    const none = { count: '0', ids: [] };
    await expectList(await list(request, data.token, { start_date: today, end_date: today }), data.merchant.code, all);
    await expectList(await list(request, data.token, { start_date: today }), data.merchant.code, all);
    await expectList(await list(request, data.token, { end_date: today }), data.merchant.code, all);
    await expectList(await list(request, data.token, { start_date: limaDay(-1), end_date: limaDay(1) }), data.merchant.code, all);
    await expectList(
      await list(request, data.token, { start_date: '2020-01-01', end_date: '2020-12-31' }),
      data.merchant.code,
      none,
    );
    await expectList(await list(request, data.token, { start_date: limaDay(1) }), data.merchant.code, none);
    await expectList(await list(request, data.token, { end_date: limaDay(-1) }), data.merchant.code, none);
    // Combined with another filter.
    await expectList(
      await list(request, data.token, {
        start_date: today,
        end_date: today,
        merchant_operation_number: data.refunds[2]!.merchant_operation_number,
      }),
      data.merchant.code,
      { count: '1', ids: [data.refunds[2]!.refund_id] },
    );
  });

  test('bad dates and a start after the end are 400 10', async ({ request }) => {
    const data = await merchantWithRefunds(request, 'RQB');
    const reversed = await expectError<ErrorReply>(
      await list(request, data.token, { start_date: limaDay(1), end_date: limaDay(0) }),
      400,
      '10',
      'string',
    );
    expect(reversed.errors.map((error) => error.field)).toEqual(['start_date']);
    for (const [name, value] of [
      ['start_date', '2026-13-01'],
      ['end_date', '2026-02-30'],
      ['start_date', '2026-1-01'],
      ['end_date', '01-01-2026'],
      ['start_date', '2026-01-01T00:00:00Z'],
    ] as const) {
      const body = await expectError<ErrorReply>(await list(request, data.token, { [name]: value }), 400, '10', 'string');
      expect([...new Set(body.errors.map((error) => error.field))]).toEqual([name]);
    }
  });

  test('an unknown query parameter is 400 10', async ({ request }) => {
    const data = await merchantWithRefunds(request, 'RQX');
    const body = await expectError<ErrorReply>(await list(request, data.token, { from: limaDay(0) }), 400, '10', 'string');
    expect(JSON.stringify(body.errors)).toContain('from');
  });

  test("a merchant token naming another merchant's code is 403 21", async ({ request }) => {
    const data = await merchantWithRefunds(request, 'RQF');
    const other = await createMerchant('RQFO');
    await expectError(await list(request, data.token, { merchant_code: other.code }), 403, '21', 'string');
    await expectError(await list(request, data.token, { merchant_code: 'NO_SUCH_MERCHANT' }), 403, '21', 'string');
  });
});

test.describe('GET /refund pagination', () => {
  test('limit and next_cursor walk every refund once, newest first', async ({ request }) => {
    const data = await merchantWithRefunds(request, 'RQP');
    const expected = newestFirst(data.refunds);
    const first = await expectList(await list(request, data.token, { limit: '2' }), data.merchant.code, {
      count: '3',
      ids: expected.slice(0, 2),
    });
    expect(typeof first.next_cursor).toBe('string');
    expect(first.next_cursor!.length).toBeGreaterThan(0);
    const second = await expectList(
      await list(request, data.token, { limit: '2', cursor: first.next_cursor! }),
      data.merchant.code,
      {
        count: '3',
        ids: expected.slice(2),
      },
    );
    expect(second.next_cursor).toBeNull();
    const seen = [...first.operations, ...second.operations].map((refund) => refund.refund_id);
    expect(new Set(seen).size).toBe(3);
    expect(seen).toEqual(expected);

    // Page size 1: three pages, the last without a cursor.
    const pages: string[][] = [];
    let cursor: string | null | undefined;
    for (let page = 0; page < 4; page += 1) {
      const body = await expectList(
        await list(request, data.token, { limit: '1', ...(cursor ? { cursor } : {}) }),
        data.merchant.code,
        { count: '3', ids: expected.slice(page, page + 1) },
      );
      pages.push(body.operations.map((refund) => refund.refund_id));
      cursor = body.next_cursor;
      if (!cursor) break;
    }
    expect(pages).toEqual(expected.map((id) => [id]));
    // A page exactly as large as the rest has no next page.
    const exact = await expectList(await list(request, data.token, { limit: '3' }), data.merchant.code, {
      count: '3',
      ids: expected,
    });
    expect(exact.next_cursor).toBeNull();
    await expectList(await list(request, data.token, { limit: '500' }), data.merchant.code, { count: '3', ids: expected });
  });

  test('the cursor keeps the filters of the query it continues', async ({ request }) => {
    const data = await merchantWithRefunds(request, 'RQPF');
    const expected = newestFirst(data.refunds);
    const first = await expectList(await list(request, data.token, { state: 'REGISTERED', limit: '1' }), data.merchant.code, {
      count: '3',
      ids: expected.slice(0, 1),
    });
    await expectList(
      await list(request, data.token, { state: 'REGISTERED', limit: '5', cursor: first.next_cursor! }),
      data.merchant.code,
      { count: '3', ids: expected.slice(1) },
    );
  });

  test('limit 0, 501 or not a number and a garbage cursor are 400 10', async ({ request }) => {
    const data = await merchantWithRefunds(request, 'RQL');
    for (const limit of ['0', '501', '-1', 'ten', '1.5']) {
      const body = await expectError<ErrorReply>(await list(request, data.token, { limit }), 400, '10', 'string');
      expect([...new Set(body.errors.map((error) => error.field))]).toEqual(['limit']);
    }
    for (const cursor of ['garbage', Buffer.from('2026-01-01T00:00:00.000Z|not-a-uuid').toString('base64url'), '!!!']) {
      const body = await expectError<ErrorReply>(await list(request, data.token, { cursor }), 400, '10', 'string');
      expect(body.errors.map((error) => error.field)).toEqual(['cursor']);
    }
  });
});

test.describe('GET /refund/{merchant_code}/{merchant_operation_number}', () => {
  test("an operation's refund, an operation without refunds and an unknown operation", async ({ request }) => {
    const data = await merchantWithRefunds(request, 'RQG');
    const target = data.refunds[0]!;
    const url = (number: string) => `${BASE_URL}/refund/${data.merchant.code}/${number}`;

    const one = await request.get(url(target.merchant_operation_number), { headers: headers(data.token) });
    const body = await expectList(one, data.merchant.code, { count: '1', ids: [target.refund_id] });
    expect(body.operations).toEqual([target]);
    expect(body.operations[0]!.lifecycle[0]!.date.utc_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);

    for (const charged of [data.unrefunded, data.authorized]) {
      const none = await request.get(url(charged.number), { headers: headers(data.token) });
      await expectList(none, data.merchant.code, { count: '0', ids: [] });
      expect((await storedOperation(data.merchant.code, charged.number)).refunds).toEqual([]);
    }

    await expectError(await request.get(url('no-such-operation'), { headers: headers(data.token) }), 404, '30', 'string');
    await expectError(await request.get(url('bad number!'), { headers: headers(data.token) }), 400, '10', 'string');
  });

  test("another merchant's operation is 404 for this merchant and 403 by its code", async ({ request }) => {
    const data = await merchantWithRefunds(request, 'RQGO');
    const other = await merchantWithRefunds(request, 'RQGP');
    const foreign = other.refunds[0]!.merchant_operation_number;
    await expectError(
      await request.get(`${BASE_URL}/refund/${data.merchant.code}/${foreign}`, { headers: headers(data.token) }),
      404,
      '30',
      'string',
    );
    await expectError(
      await request.get(`${BASE_URL}/refund/${other.merchant.code}/${foreign}`, { headers: headers(data.token) }),
      403,
      '21',
      'string',
    );
  });
});
