import { describe, expect, it } from 'vitest';
import { toAppError } from '@/server/api/errors/to-app-error';
import { listEvents } from '@/server/modules/events/list-events';
import { listRefunds } from '@/server/modules/refunds/list-refunds';
import { authorizeCharge } from '@/server/modules/charges/authorize-charge';
import { chargeRequest, sessionAs, withTestMerchant } from '@tests/support/procedure-test-support';

// Every page cursor the service hands out, forged: each is 400 `10` on `cursor`, never a query
// with the forged value (the attack suite's 500s: 36 dashes for an id, `abc` for an amount or date).
const fixture = withTestMerchant('CURSORS');

const b64 = (text: string) => Buffer.from(text).toString('base64url');
const ID = '0b5e8f1c-2d3a-4b6c-8d9e-0f1a2b3c4d5e';

async function refusalOf(run: () => Promise<unknown>) {
  try {
    await run();
  } catch (error) {
    const { kind, errors } = toAppError(error);
    return { kind, fields: errors.map((each) => each.field) };
  }
  return 'answered';
}

const REFUSED = { kind: 'VALIDATION', fields: ['cursor'] };

describe('forged cursors', () => {
  it.each([
    ['36 dashes for the id', b64(`2026-01-01T00:00:00.000Z|${'-'.repeat(36)}`)],
    ['a date that is none', b64(`abc|${ID}`)],
    ['a count of the wrong shape', b64(`2026-01-01T00:00:00.000Z|${ID}|x|abcdefghijklmnop`)],
  ])('GET /refund refuses %s', async (_label, cursor) => {
    const scope = { merchantIds: [fixture.merchant.id], merchantCode: fixture.merchant.code };
    expect(await refusalOf(() => listRefunds(fixture.db.prisma, scope, { cursor }))).toStrictEqual(REFUSED);
  });

  it.each([
    ['a seq that is no number', b64('eabc')],
    ['a seq past 64 bits', b64('e9223372036854775808')],
    ['no prefix', b64('12')],
  ])('GET /events refuses %s', async (_label, cursor) => {
    const scope = { merchantIds: [fixture.merchant.id], merchantCode: fixture.merchant.code };
    expect(await refusalOf(() => listEvents(fixture.db.prisma, scope, { cursor }))).toStrictEqual(REFUSED);
  });

  it.each([
    ['amount_desc', b64(`abc|${ID}`)],
    ['newest', b64(`abc|${ID}`)],
    ['amount_asc', b64(`2026-01-01T00:00:00.000Z|${ID}`)],
    ['oldest', b64(`1500|${ID}`)],
  ] as const)('console.operations sorted %s refuses a cursor of another shape', async (sort, cursor) => {
    const support = fixture.db.caller(sessionAs('SUPPORT'));
    expect(await refusalOf(() => support.console.operations({ sort, cursor }))).toStrictEqual(REFUSED);
  });

  it.each([
    ['a seq that is no number', b64('abc')],
    ['plain digits, not a cursor', '12'],
  ])('console.callbackEvents refuses %s', async (_label, cursor) => {
    const support = fixture.db.caller(sessionAs('SUPPORT'));
    expect(await refusalOf(() => support.console.callbackEvents({ cursor }))).toStrictEqual(REFUSED);
  });

  it('the cursors the service hands out still walk the pages, in every sort', async () => {
    for (const number of ['walk-1', 'walk-2']) {
      await authorizeCharge(fixture.db.prisma, fixture.merchant, chargeRequest(fixture.merchant.code, number, 'QR'));
    }
    const support = fixture.db.caller(sessionAs('SUPPORT'));
    for (const sort of ['newest', 'oldest', 'amount_desc', 'amount_asc'] as const) {
      const first = await support.console.operations({ sort, limit: 1, merchantCode: fixture.merchant.code });
      const second = await support.console.operations({
        sort,
        limit: 1,
        merchantCode: fixture.merchant.code,
        cursor: first.nextCursor!,
      });
      const numbers = [...first.rows, ...second.rows].map((row) => row.merchantOperationNumber).sort();
      expect(numbers).toStrictEqual(['walk-1', 'walk-2']);
    }
  });
});
