import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@/generated/prisma/client';
import {
  chargeRequest,
  consoleCallerOf,
  openTestDatabase,
  sessionAs,
  SETUP_TIMEOUT,
  testMerchant,
  type TestDatabase,
} from '@tests/support/procedure-test-support';
import { authorizeCharge } from '@/server/modules/charges/authorize-charge';
import { settleAuthorized } from '@/server/modules/charges/settle-authorized';
import { can } from '@/server/modules/access/policy';
import { refundsExport } from './refunds-export';
import { lifecycleEntry, type RefundLifecycle } from '@/server/modules/refunds/refund-view';

// The CSV export of the refunds page: the file's exact text, the page's filters, the scope, the
// merchant column of platform staff, and the refusals.
let db: TestDatabase;
let prisma: PrismaClient;
const ids: Record<string, string> = {};
const MERCHANT_HEADER =
  'refund_id,merchant_operation_number,transaction_id,type,state,amount,currency,amount_cents,reason,' +
  'created_at_utc,created_at_local,updated_at_utc,updated_at_local\r\n';
const SUPPORT_HEADER =
  'refund_id,merchant_code,merchant_operation_number,transaction_id,type,state,amount,currency,amount_cents,reason,' +
  'created_at_utc,created_at_local,updated_at_utc,updated_at_local\r\n';
const NOW = new Date('2026-11-21T04:30:00Z'); // still the 20th in Lima

beforeAll(async () => {
  db = await openTestDatabase();
  prisma = db.prisma;
  const a = await testMerchant(prisma, 'RCSVA');
  const b = await testMerchant(prisma, 'RCSVB');
  ids.A = a.id;
  for (const [merchant, number] of [
    [a, 'a-formula'],
    [a, 'a-quoted'],
    [a, 'a-plain'],
    [b, 'b-plain'],
  ] as const) {
    const reply = await authorizeCharge(prisma, merchant, chargeRequest(merchant.code, number, 'CARD'));
    ids[number] = reply.transaction.transaction_id;
  }
  expect(await settleAuthorized(prisma, new Date())).toBe(4);
  const reasons: Record<string, string> = {
    'a-formula': '=HYPERLINK("http://evil.example")',
    'a-quoted': 'Talla "M", no "S"',
    'a-plain': 'cliente',
    'b-plain': 'cliente',
  };
  for (const [number, reason] of Object.entries(reasons)) {
    const merchantId = number.startsWith('a-') ? a.id : b.id;
    const admin = consoleCallerOf(prisma, sessionAs('MERCHANT_ADMIN', merchantId));
    await admin.console.refund({
      transactionId: ids[number]!,
      additional_fields: { canal: 'console', reason, description: 'prueba' },
    });
  }
  // One refund of another day, for the date filters.
  await prisma.refund.updateMany({
    where: { transactionId: ids['a-plain']! },
    data: { createdAt: new Date('2026-01-10T15:00:00Z') },
  });
  await prisma.refund.updateMany({
    where: { transactionId: ids['a-plain']! },
    data: { lifecycle: [lifecycleEntry('REGISTERED', new Date('2026-01-10T15:00:00Z'))] },
  });
}, SETUP_TIMEOUT);

afterAll(async () => {
  await db.close();
});

async function exported(params: Record<string, string>, role: 'MERCHANT_VIEWER' | 'SUPPORT' = 'MERCHANT_VIEWER') {
  const session = sessionAs(role, can(role, 'merchants:all') ? null : ids.A!);
  return refundsExport({ prisma, session, params, lang: 'es', now: NOW });
}

const lines = async (response: Response) => (await response.text()).split('\r\n').slice(1, -1);

/** The row the file must hold for a refund, built from what is stored. */
async function expectedLine(number: string, reason: string, merchantCode?: string) {
  const refund = await prisma.refund.findFirstOrThrow({ where: { transactionId: ids[number]! } });
  const lifecycle = refund.lifecycle as RefundLifecycle;
  const at = (instant: Date) => [
    `${instant.toISOString().slice(0, 19)}Z`,
    new Date(instant.getTime() - 5 * 3600_000).toISOString().replace('T', ' ').slice(0, 19),
  ];
  return [
    refund.id,
    ...(merchantCode ? [merchantCode] : []),
    number,
    ids[number],
    'TOTAL',
    'REGISTERED',
    '150.00',
    'PEN',
    '15000',
    reason,
    ...at(new Date(lifecycle[0]!.at)),
    ...at(new Date(lifecycle.at(-1)!.at)),
  ].join(',');
}

describe('refundsExport', () => {
  it("answers the merchant's whole filtered set as an exact CSV file, newest first, formulas inert", async () => {
    const response = await exported({ start_date: '2026-11-01', state: 'REGISTERED' });
    expect(response.status).toBe(200);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': 'attachment; filename="refunds-2026-11-20.csv"',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'x-total-rows': '2',
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes.slice(3))).toBe(
      MERCHANT_HEADER +
        (await expectedLine('a-quoted', '"Talla ""M"", no ""S"""')) +
        '\r\n' +
        (await expectedLine('a-formula', `"'=HYPERLINK(""http://evil.example"")"`)) +
        '\r\n',
    );
  });

  it("applies the page's filters: dates of the business zone, operation, transaction, state", async () => {
    const numbers = async (params: Record<string, string>) =>
      (await lines(await exported(params))).map((line) => line.split(',')[1]);
    expect(await numbers({})).toEqual(['a-quoted', 'a-formula', 'a-plain']);
    expect(await numbers({ start_date: '2026-01-10', end_date: '2026-01-10' })).toEqual(['a-plain']);
    expect(await numbers({ end_date: '2026-01-09' })).toEqual([]);
    expect(await numbers({ merchant_operation_number: 'a-formula' })).toEqual(['a-formula']);
    expect(await numbers({ transaction_id: ids['a-quoted']!.toUpperCase() })).toEqual(['a-quoted']);
    expect(await numbers({ state: 'RESOLVED' })).toEqual([]);
    // A blank field is no filter; the page's cursor is not one either: the export is the whole set.
    expect(await numbers({ state: '', cursor: 'anything' })).toEqual(['a-quoted', 'a-formula', 'a-plain']);
  });

  it("keeps a merchant user to its merchant (naming another finds nothing), and gives support every one with the merchant's code", async () => {
    const own = await (await exported({})).text();
    expect(own).not.toContain(ids['b-plain']!);
    expect(await (await exported({ merchant_code: 'RCSVB' })).text()).toBe(MERCHANT_HEADER);
    const everything = await exported({}, 'SUPPORT');
    const text = await everything.text();
    expect(text.startsWith(SUPPORT_HEADER)).toBe(true);
    expect(text.split('\r\n').slice(1, -1)).toHaveLength(4);
    expect(text).toContain(`${await expectedLine('b-plain', 'cliente', 'RCSVB')}\r\n`);
    expect(text).toContain(`${await expectedLine('a-plain', 'cliente', 'RCSVA')}\r\n`);
    expect(await lines(await exported({ merchant_code: 'RCSVB' }, 'SUPPORT'))).toEqual([
      await expectedLine('b-plain', 'cliente', 'RCSVB'),
    ]);
  });

  it('walks the listing page by page and writes every row once', async () => {
    const session = sessionAs('SUPPORT');
    const response = await refundsExport({ prisma, session, params: {}, lang: 'es', now: NOW, batch: 1 });
    const ids = (await lines(response)).map((line) => line.split(',')[0]);
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(4);
  });

  it('refuses without a session, with bad filters, for a user with no merchant, and beyond the row limit', async () => {
    const anonymous = await refundsExport({ prisma, session: null, params: {}, lang: 'en' });
    expect([anonymous.status, await anonymous.text()]).toEqual([401, 'Sign in to the console to export refunds.\n']);
    const bad = await exported({ state: 'PAGADO', start_date: '2026-02-30', transaction_id: 'abc' });
    expect([bad.status, bad.headers.get('cache-control'), await bad.text()]).toEqual([
      400,
      'no-store',
      'Los filtros no son válidos (start_date, transaction_id, state). Corrígelos en la página de reembolsos y vuelve a exportar.\n',
    ]);
    const reversed = await refundsExport({
      prisma,
      session: sessionAs('SUPPORT'),
      params: { start_date: '2026-11-02', end_date: '2026-11-01' },
      lang: 'en',
    });
    expect([reversed.status, await reversed.text()]).toEqual([
      400,
      'The filters are not valid (start_date). Fix them on the refunds page and export again.\n',
    ]);
    const orphan = await refundsExport({ prisma, session: sessionAs('MERCHANT_VIEWER'), params: {}, lang: 'es' });
    expect([orphan.status, await orphan.text()]).toEqual([403, 'Tu usuario no tiene un comercio asignado.\n']);
    const tooMany = await refundsExport({ prisma, session: sessionAs('SUPPORT'), params: {}, lang: 'es', maxRows: 3 });
    expect([tooMany.status, await tooMany.text()]).toEqual([
      422,
      'Hay 4 reembolsos con estos filtros y la exportación admite hasta 3. Acota las fechas u otros filtros.\n',
    ]);
    const atTheLimit = await refundsExport({ prisma, session: sessionAs('SUPPORT'), params: {}, lang: 'es', maxRows: 4 });
    expect(await lines(atTheLimit)).toHaveLength(4);
  });
});
