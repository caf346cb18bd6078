import { expect, test } from '../support/contract';
import type { APIRequestContext } from '@playwright/test';
import { headers, tokenFor } from '../support/api-client';
import { BASE_URL, createMerchant, type TestMerchant } from '../support/service';
import { chargeOne, challengeOf, expectError, expectMeta } from './auth-helpers';

// GET {base_url}/events (docs/DECISIONS.md, "The events API"): a merchant's events oldest
// first, with filters and cursor pages, under its own scope.

type EventItem = {
  event_id: string;
  event_type: string;
  merchant_operation_number: string;
  created_at: string;
  delivery: { status: string; attempts: number; delivered_at: string | null };
  payload: { event_id: string; event_type: string; merchant_code: string; merchant_operation_number: string };
};
type EventPage = { success: boolean; merchant_code: string; events: EventItem[]; next_cursor: string | null; meta: unknown };

const EVENT_SCOPES = 'create:token post:charges get:charges get:events';

async function eventsOf(request: APIRequestContext, token: string, query = '') {
  return request.get(`${BASE_URL}/events${query}`, { headers: headers(token) });
}

async function pageOf(request: APIRequestContext, token: string, query = ''): Promise<EventPage> {
  const response = await eventsOf(request, token, query);
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as EventPage;
}

/** A merchant with two CARD operations (three events each, no callback URL). */
async function merchantWithEvents(request: APIRequestContext, prefix: string) {
  const merchant = await createMerchant(prefix);
  const token = await tokenFor(request, merchant, EVENT_SCOPES);
  const first = await chargeOne(request, token, merchant.code);
  const second = await chargeOne(request, token, merchant.code);
  return { merchant, token, numbers: [first.number, second.number] };
}

test('the events of the merchant, oldest first, each with its callback body and its delivery', async ({ request }) => {
  const { merchant, token, numbers } = await merchantWithEvents(request, 'EVA');
  const page = await pageOf(request, token);
  expect(page.success).toBe(true);
  expect(page.merchant_code).toBe(merchant.code);
  expectMeta(page.meta, '00');
  expect(page.next_cursor).toBeNull();
  expect(page.events.map((event) => [event.merchant_operation_number, event.event_type])).toEqual(
    numbers.flatMap((number) => [
      [number, 'transaction.registered'],
      [number, 'transaction.pending'],
      [number, 'transaction.authorized'],
    ]),
  );
  for (const event of page.events) {
    expect(event.payload.event_id).toBe(event.event_id);
    expect(event.payload.event_type).toBe(event.event_type);
    expect(event.payload.merchant_code).toBe(merchant.code);
    // A CARD charge as the interface writes it names no callback URL.
    expect(event.delivery).toEqual({ status: 'SKIPPED', attempts: 0, delivered_at: null });
    expect(Date.parse(event.created_at)).not.toBeNaN();
  }
});

test('filters by type, operation, delivery and creation time; pages by cursor without repeats or gaps', async ({ request }) => {
  const { token, numbers } = await merchantWithEvents(request, 'EVF');
  const all = (await pageOf(request, token)).events;
  const authorized = await pageOf(request, token, '?type=transaction.authorized');
  expect(authorized.events.map((event) => event.merchant_operation_number)).toEqual(numbers);
  const ofFirst = await pageOf(request, token, `?merchant_operation_number=${numbers[0]}`);
  expect(ofFirst.events.map((event) => event.event_id)).toEqual(all.slice(0, 3).map((event) => event.event_id));
  expect((await pageOf(request, token, '?delivered=true')).events).toEqual([]);
  expect((await pageOf(request, token, '?delivered=false')).events).toEqual(all);
  const after = encodeURIComponent(all[2]!.created_at);
  const later = await pageOf(request, token, `?created_after=${after}`);
  expect(later.events.every((event) => Date.parse(event.created_at) > Date.parse(all[2]!.created_at))).toBe(true);
  expect(later.events.length).toBeGreaterThan(0);

  const paged: EventItem[] = [];
  let cursor: string | null = null;
  do {
    const page: EventPage = await pageOf(request, token, `?limit=4${cursor ? `&cursor=${cursor}` : ''}`);
    expect(page.events.length).toBeLessThanOrEqual(4);
    paged.push(...page.events);
    cursor = page.next_cursor;
  } while (cursor);
  expect(paged.map((event) => event.event_id)).toEqual(all.map((event) => event.event_id));
});

test('its own scope: a token without get:events is 403 21 with an insufficient_scope challenge', async ({ request }) => {
  const merchant = await createMerchant('EVS');
  const token = await tokenFor(request, merchant, 'create:token post:charges get:charges delete:charges');
  const response = await eventsOf(request, token);
  await expectError(response, 403, '21', 'boolean');
  expect(challengeOf(response.headers()['www-authenticate'])).toMatchObject({ error: 'insufficient_scope', scope: 'get:events' });
});

test('another merchant’s events are neither listed nor reachable by naming it', async ({ request }) => {
  const ours = await merchantWithEvents(request, 'EVO');
  const other: TestMerchant = await createMerchant('EVX');
  const otherToken = await tokenFor(request, other, EVENT_SCOPES);
  await chargeOne(request, otherToken, other.code);
  expect((await pageOf(request, otherToken)).events.map((event) => event.merchant_operation_number)).not.toContain(
    ours.numbers[0],
  );
  await expectError(await eventsOf(request, otherToken, `?merchant_code=${ours.merchant.code}`), 403, '21', 'boolean');
});

test('bad filters are 400 10 on the field and list nothing', async ({ request }) => {
  const { token } = await merchantWithEvents(request, 'EVB');
  for (const [query, field] of [
    ['?limit=0', 'limit'],
    ['?limit=501', 'limit'],
    ['?type=transaction.nope', 'type'],
    ['?delivered=yes', 'delivered'],
    ['?created_after=2026-11-25', 'created_after'],
    ['?cursor=bm90LW91cnM', 'cursor'],
    ['?merchant_operation_number=a%20b', 'merchant_operation_number'],
    ['?sort=asc', 'sort'],
  ] as const) {
    const body = await expectError(await eventsOf(request, token, query), 400, '10', 'boolean');
    expect(
      body.errors.map((error) => error.field),
      query,
    ).toEqual([field]);
  }
});
