import { describe, expect, it, vi } from 'vitest';
import { toAppError } from '@/server/api/errors/to-app-error';
import { authorizeCharge } from '@/server/modules/charges/authorize-charge';
import { createEndpoint, updateEndpoint } from '@/server/modules/events/webhooks/webhook-endpoints';
import { chargeRequest, withTestMerchant } from '@tests/support/procedure-test-support';

// With CALLBACKS_ALLOW_PRIVATE_NETWORKS off (the default; the suites turn it on for their local
// receivers), a callback_url or webhook endpoint that can only reach the service's own network is
// refused when it is given, with 400 `10` on its field, and nothing is stored.
vi.stubEnv('CALLBACKS_ALLOW_PRIVATE_NETWORKS', 'false');

const fixture = withTestMerchant('PRIVATEDEST');
const scope = () => ({ kind: 'one' as const, merchantId: fixture.merchant.id });

async function refusalOf(run: () => Promise<unknown>) {
  try {
    await run();
  } catch (error) {
    const { kind, errors } = toAppError(error);
    return { kind, fields: errors.map((each) => [each.field, each.code]) };
  }
  return 'accepted';
}

describe('private callback destinations, refused when given', () => {
  it.each([
    'http://127.0.0.1:3300/x',
    'http://2130706433/x',
    'http://[::ffff:127.0.0.1]/x',
    'http://api.localhost/x',
    'http://db.internal/x',
  ])('POST /charges refuses the callback_url %s and stores nothing', async (url) => {
    const number = `private-${Buffer.from(url).toString('hex').slice(0, 16)}`;
    const request = chargeRequest(fixture.merchant.code, number, 'CARD', { callbackUrl: url });
    expect(await refusalOf(() => authorizeCharge(fixture.db.prisma, fixture.merchant, request))).toStrictEqual({
      kind: 'VALIDATION',
      fields: [['payment_method.method_details.callback_url', 'non_public_destination']],
    });
    expect(await fixture.db.prisma.operation.count({ where: { merchantOperationNumber: number } })).toBe(0);
  });

  it('POST /charges takes a public callback_url', async () => {
    const request = chargeRequest(fixture.merchant.code, 'public-callback', 'CARD', {
      callbackUrl: 'https://shop.example.pe/cb',
    });
    const answer = await authorizeCharge(fixture.db.prisma, fixture.merchant, request);
    expect(answer.transaction.state).toBe('AUTORIZADO');
  });

  it('a webhook endpoint on a private address is refused, created or changed', async () => {
    const input = { url: 'http://[::1]/hook', eventTypes: ['*'], description: 'loopback' };
    expect(await refusalOf(() => createEndpoint(fixture.db.prisma, scope(), undefined, input))).toStrictEqual({
      kind: 'VALIDATION',
      fields: [['url', 'non_public_destination']],
    });
    expect(await fixture.db.prisma.webhookEndpoint.count({ where: { merchantId: fixture.merchant.id } })).toBe(0);
    const created = await createEndpoint(fixture.db.prisma, scope(), undefined, {
      ...input,
      url: 'https://hooks.example.pe/pay',
    });
    expect(
      await refusalOf(() => updateEndpoint(fixture.db.prisma, scope(), created.id, { url: 'http://169.254.169.254/x' })),
    ).toStrictEqual({
      kind: 'VALIDATION',
      fields: [['url', 'non_public_destination']],
    });
    const stored = await fixture.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: created.id } });
    expect(stored.url).toBe('https://hooks.example.pe/pay');
  });
});
