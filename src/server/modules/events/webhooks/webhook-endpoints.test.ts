import { describe, expect, it } from 'vitest';
import { listEvents } from '@/server/modules/events/list-events';
import { chargeRequest, testMerchant, withTestMerchant } from '@tests/support/procedure-test-support';
import { authorizeCharge } from '@/server/modules/charges/authorize-charge';
import { cancelOperation } from '@/server/modules/charges/cancel-operation';
import { deliverAll, webhookReceiver } from '@tests/support/webhook-receiver';
import { Webhook } from 'standardwebhooks';
import {
  createEndpoint,
  disableFailingEndpoints,
  listEndpoints,
  rotateEndpointSecret,
  sendTestDelivery,
  updateEndpoint,
} from './webhook-endpoints';

// Webhook endpoints end to end on the embedded database: events of operations without a
// callback_url fan out to the endpoints subscribed to their type, in the event's transaction;
// the worker's claim and send carry them; failures start a run that disables the endpoint after
// days; a test delivery (not an event) reaches the one endpoint.

const fixture = withTestMerchant('WEBHOOKS');
const received: { path: string; type: string; eventId: string; body: string; headers: Record<string, string> }[] = [];
let answer = 200;

const receiver = webhookReceiver((request, raw) => {
  const body = JSON.parse(raw) as { event_type?: string; event_id?: string; action: string; test_id?: string };
  const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
  // An event names its type; a test delivery says `action: "test"` and has a test_id instead.
  const [type, eventId] = body.event_type ? [body.event_type, body.event_id!] : [body.action, body.test_id!];
  received.push({ path: request.url ?? '/', type, eventId, body: raw, headers });
  return answer;
});

const scope = () => ({ kind: 'one' as const, merchantId: fixture.merchant.id });

describe('webhook endpoints', () => {
  it("receive the events of operations without a callback_url, the types each wants, in the event's transaction", async () => {
    const all = await createEndpoint(fixture.db.prisma, scope(), undefined, {
      url: `${receiver.origin()}/all`,
      eventTypes: ['*'],
      description: 'every event',
    });
    await createEndpoint(fixture.db.prisma, scope(), undefined, {
      url: `${receiver.origin()}/cancelled`,
      eventTypes: ['transaction.cancelled'],
      description: '',
    });
    const qr = await authorizeCharge(fixture.db.prisma, fixture.merchant, chargeRequest(fixture.merchant.code, 'wh-1', 'QR'));
    await cancelOperation(fixture.db.prisma, fixture.merchant, 'wh-1');
    // One with its own callback_url: the operation's URL gets it, the endpoints do not.
    await authorizeCharge(
      fixture.db.prisma,
      fixture.merchant,
      chargeRequest(fixture.merchant.code, 'wh-2', 'QR', { callbackUrl: `${receiver.origin()}/own` }),
    );

    const deliveries = await fixture.db.prisma.endpointDelivery.findMany({
      select: { endpointId: true, event: { select: { type: true, aggregateId: true } } },
      orderBy: { seq: 'asc' },
    });
    const transactionId = qr.transaction.transaction_id;
    expect(
      deliveries.map((row) => [row.endpointId === all.id ? 'all' : 'cancelled', row.event.type, row.event.aggregateId]),
    ).toEqual([
      ['all', 'transaction.registered', transactionId],
      ['all', 'transaction.pending', transactionId],
      ['all', 'transaction.cancelled', transactionId],
      ['cancelled', 'transaction.cancelled', transactionId],
    ]);

    await deliverAll(fixture.db.prisma);
    expect(received.filter((each) => each.path === '/all').map((each) => each.type)).toEqual([
      'transaction.registered',
      'transaction.pending',
      'transaction.cancelled',
    ]);
    expect(received.filter((each) => each.path === '/cancelled').map((each) => each.type)).toEqual(['transaction.cancelled']);
    expect(received.filter((each) => each.path === '/own').map((each) => each.type)).toEqual([
      'transaction.registered',
      'transaction.pending',
    ]);
    const listed = await listEndpoints(fixture.db.prisma, scope());
    expect(listed.map((endpoint) => [endpoint.url, endpoint.pending, endpoint.failingSince])).toEqual([
      [`${receiver.origin()}/all`, 0, null],
      [`${receiver.origin()}/cancelled`, 0, null],
    ]);
    expect(
      await fixture.db.prisma.callbackAttempt.count({ where: { endpointDeliveryId: { not: null }, outcome: 'delivered' } }),
    ).toBe(4);
  });

  it('mark an endpoint failing at its first failure, clear it at a success, and disable it after days of failures', async () => {
    const [endpoint] = await listEndpoints(fixture.db.prisma, scope());
    answer = 500;
    await sendTestDelivery(fixture.db.prisma, scope(), endpoint!.id);
    await deliverAll(fixture.db.prisma);
    const failing = await fixture.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint!.id } });
    expect(failing.failingSince).not.toBeNull();
    expect(received.at(-1)).toMatchObject({ path: '/all', type: 'test' });

    // Not yet: the run is younger than the limit.
    expect(await disableFailingEndpoints(fixture.db.prisma, 3)).toBe(0);
    // Four days on, still no success: disabled, with why; its pending deliveries are given up.
    await authorizeCharge(fixture.db.prisma, fixture.merchant, chargeRequest(fixture.merchant.code, 'wh-3', 'QR'));
    expect(await disableFailingEndpoints(fixture.db.prisma, 3, new Date(Date.now() + 4 * 86_400_000))).toBe(1);
    const disabled = await fixture.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint!.id } });
    expect(disabled.enabled).toBe(false);
    expect(disabled.disabledReason).toMatch(/^every delivery failed since .* \(3 days\)$/);
    const pending = await fixture.db.prisma.endpointDelivery.count({ where: { endpointId: endpoint!.id, status: 'PENDING' } });
    expect(pending).toBe(0);

    // Enabled again by a user: the run starts over, and it receives again.
    answer = 200;
    const enabled = await updateEndpoint(fixture.db.prisma, scope(), endpoint!.id, { enabled: true });
    expect([enabled.enabled, enabled.disabledReason, enabled.failingSince]).toEqual([true, null, null]);
    await sendTestDelivery(fixture.db.prisma, scope(), endpoint!.id);
    await deliverAll(fixture.db.prisma);
    expect(received.at(-1)).toMatchObject({ path: '/all', type: 'test' });
  });

  it("are another merchant's: not found", async () => {
    const other = await testMerchant(fixture.db.prisma, 'WEBHOOKS2');
    const [endpoint] = await listEndpoints(fixture.db.prisma, scope());
    await expect(sendTestDelivery(fixture.db.prisma, { kind: 'one', merchantId: other.id }, endpoint!.id)).rejects.toMatchObject({
      kind: 'NOT_FOUND',
    });
  });

  it('sign every delivery in the Standard Webhooks format with the secret shown once; a rotation overlaps, or cuts off at once', async () => {
    const made = await createEndpoint(fixture.db.prisma, scope(), undefined, {
      url: `${receiver.origin()}/signed`,
      // Subscribed to refunds only: a test delivery comes whatever the endpoint subscribes to.
      eventTypes: ['refund.resolved'],
      description: 'signed',
    });
    expect(made.secret).toMatch(/^whsec_/);
    const listed = (await listEndpoints(fixture.db.prisma, scope())).find((each) => each.id === made.id)!;
    expect(listed.secretHint).toBe(`whsec_…${made.secret.slice(-4)}`);
    expect(JSON.stringify(listed)).not.toContain(made.secret);
    const stored = await fixture.db.prisma.webhookEndpointSecret.findMany({ where: { endpointId: made.id } });
    expect(JSON.stringify(stored)).not.toContain(made.secret.slice(6));

    const delivered = async () => {
      const { testId } = await sendTestDelivery(fixture.db.prisma, scope(), made.id);
      await deliverAll(fixture.db.prisma);
      return received.find((each) => each.eventId === testId)!;
    };
    const first = await delivered();
    expect(first.headers['webhook-id']).toBe(first.eventId);
    expect(first.headers).not.toHaveProperty('signature');
    const message = new Webhook(made.secret).verify(first.body, first.headers) as Record<string, unknown>;
    expect(Object.keys(message).sort()).toEqual(['action', 'merchant_code', 'meta', 'success', 'test_id', 'webhook_endpoint']);
    expect(message).toMatchObject({
      success: 'true',
      action: 'test',
      merchant_code: fixture.merchant.code,
      test_id: first.eventId,
      webhook_endpoint: { id: made.id, url: `${receiver.origin()}/signed` },
    });
    // Not an event: the events API does not list it.
    const events = await listEvents(
      fixture.db.prisma,
      { merchantIds: [fixture.merchant.id], merchantCode: fixture.merchant.code },
      {},
    );
    expect(events.events.map((event) => event.event_id)).not.toContain(first.eventId);
    expect(events.events.length).toBeGreaterThan(0);

    // Rotated with a day's overlap: both secrets verify, one signature each.
    const rotated = await rotateEndpointSecret(fixture.db.prisma, scope(), made.id, 24);
    expect(rotated.previousSecretExpiresAt).not.toBeNull();
    const during = await delivered();
    expect(during.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(rotated.secret).verify(during.body, during.headers)).toBeTruthy();
    expect(new Webhook(made.secret).verify(during.body, during.headers)).toBeTruthy();

    // Rotated again at once (a leaked secret): only the newest signs.
    const cut = await rotateEndpointSecret(fixture.db.prisma, scope(), made.id, 0);
    expect(cut.previousSecretExpiresAt).toBeNull();
    const after = await delivered();
    expect(after.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(new Webhook(cut.secret).verify(after.body, after.headers)).toBeTruthy();
    expect(() => new Webhook(rotated.secret).verify(after.body, after.headers)).toThrow('No matching signature found');
    expect(() => new Webhook(made.secret).verify(after.body, after.headers)).toThrow('No matching signature found');
    await expect(rotateEndpointSecret(fixture.db.prisma, scope(), made.id, 169)).rejects.toThrow('0 to 168 hours');
  });
});
