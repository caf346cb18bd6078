import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@/generated/prisma/client';
import {
  chargeRequest,
  openTestDatabase,
  sessionAs,
  testMerchant,
  type TestDatabase,
} from '@tests/support/procedure-test-support';
import { authorizeCharge } from '@/server/modules/charges/authorize-charge';
import { CSV_HEADER, operationsCsv } from './operations-csv';
import { csvCell } from './csv';
import { operationsExport } from './operations-export';
import { can } from '@/server/modules/access/policy';

// The CSV export of the operations table: the file's exact text, the filters, the scope and the refusals.
let db: TestDatabase;
let prisma: PrismaClient;
const ids: Record<string, string> = {};
const HEADER =
  'transaction_id,merchant_code,merchant_name,merchant_operation_number,method,state,amount,currency,amount_cents,' +
  'captured_amount,refunded_amount,refund_in_process_amount,' +
  'card_brand,masked_pan,payer_name,payer_email,created_at_utc,created_at_local\r\n';
const NOW = new Date('2026-11-21T04:30:00Z'); // still the 20th in Lima

beforeAll(async () => {
  db = await openTestDatabase();
  prisma = db.prisma;
  const a = await testMerchant(prisma, 'CSVA', 'Bodega "Ñaña", S.A.C.');
  const b = await testMerchant(prisma, 'CSVB');
  ids.A = a.id;
  const charges = [
    [a, 'a-formula', 'CARD', { first_name: '=HYPERLINK("http://evil.example")', email: '-1+1@example.pe' }],
    [a, 'a-quoted', 'CARD', { first_name: 'Ana "La Jefa", Quispe', last_name: 'de\nLima' }],
    [a, 'a-qr', 'QR', { first_name: 'José', last_name: 'Ñique' }],
    [a, 'a-declined', 'CARD', { first_name: 'Rosa' }, '4000000000000002'],
    [b, 'b-card', 'CARD', { first_name: 'Otro' }],
  ] as const;
  for (const [merchant, number, method, customer, pan] of charges) {
    const reply = await authorizeCharge(prisma, merchant, chargeRequest(merchant.code, number, method, { customer, pan }));
    ids[number] = reply.transaction.transaction_id;
  }
}, 60_000);

afterAll(async () => {
  await db.close();
});

async function exported(params: Record<string, string>, role: 'MERCHANT_VIEWER' | 'SUPPORT' = 'MERCHANT_VIEWER') {
  const session = sessionAs(role, can(role, 'merchants:all') ? null : ids.A!);
  return operationsExport({ prisma, session, params, lang: 'es', now: NOW });
}

/** The row the file must hold for an operation, built from what is stored. */
async function expectedLine(number: string, cells: { name: string; email: string; brand: string; pan: string }) {
  const row = await prisma.transaction.findUniqueOrThrow({ where: { id: ids[number]! } });
  const lima = new Date(row.createdAt.getTime() - 5 * 3600_000).toISOString().replace('T', ' ').slice(0, 19);
  const money = row.method === 'QR' ? ['25.00', 'PEN', '2500'] : ['150.00', 'PEN', '15000'];
  return [
    row.id,
    'CSVA',
    '"Bodega ""Ñaña"", S.A.C."',
    number,
    row.method,
    row.state,
    ...money,
    // Captured, refunded, refund in process: an approved card payment captured with its authorization.
    ['AUTORIZADO', 'LIQUIDADO'].includes(row.state) ? money[0] : '',
    '0.00',
    '0.00',
    cells.brand,
    cells.pan,
    cells.name,
    cells.email,
    row.createdAt.toISOString(),
    lima,
  ].join(',');
}

describe('csvCell', () => {
  it('leaves plain text alone and quotes a quote, comma or line break (quotes doubled)', () => {
    expect(csvCell('ord-1')).toBe('ord-1');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvCell('')).toBe('');
  });

  it('makes every formula start inert with a leading quote', () => {
    for (const start of ['=', '+', '-', '@', '\t']) expect(csvCell(`${start}1+1`)).toBe(`'${start}1+1`);
    expect(csvCell('\rcmd')).toBe(`"'\rcmd"`);
    expect(csvCell('=A1,B1')).toBe(`"'=A1,B1"`);
    expect(csvCell('a=b')).toBe('a=b');
  });
});

describe('operationsExport', () => {
  it("answers the merchant's whole filtered set as an exact CSV file, newest first", async () => {
    const response = await exported({ method: 'CARD', state: 'AUTORIZADO' });
    expect(response.status).toBe(200);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': 'attachment; filename="operations-2026-11-20.csv"',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'x-total-rows': '2',
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes.slice(3));
    const card = { brand: 'VISA', pan: '411111******1111' };
    expect(text).toBe(
      HEADER +
        (await expectedLine('a-quoted', { ...card, name: '"Ana ""La Jefa"", Quispe de\nLima"', email: '' })) +
        '\r\n' +
        (await expectedLine('a-formula', {
          ...card,
          name: `"'=HYPERLINK(""http://evil.example"")"`,
          email: "'-1+1@example.pe",
        })) +
        '\r\n',
    );
    expect(HEADER).toBe(`${CSV_HEADER.join(',')}\r\n`);
  });

  it('keeps a merchant user to its merchant, and gives support every one', async () => {
    const own = await (await exported({})).text();
    expect(own.split('\r\n').filter((line) => line.includes(',CSVA,'))).toHaveLength(4);
    expect(own).not.toContain('CSVB');
    const everything = await (await exported({}, 'SUPPORT')).text();
    expect(everything).toContain(ids['b-card']!);
    // Response.text() drops the byte-order mark: the file of no rows is the header alone.
    expect(await (await exported({ search: 'b-card' })).text()).toBe(HEADER);
  });

  it('refuses without a session, with bad filters, for a user with no merchant, and beyond the row limit', async () => {
    const anonymous = await operationsExport({ prisma, session: null, params: {}, lang: 'en' });
    expect([anonymous.status, await anonymous.text()]).toEqual([401, 'Sign in to the console to export operations.\n']);
    const bad = await exported({ state: 'PAGADO', from: '2026-02-30', min: 'diez', sort: 'newest' });
    expect([bad.status, bad.headers.get('cache-control'), await bad.text()]).toEqual([
      400,
      'no-store',
      'Los filtros no son válidos (state, from, min). Corrígelos en la página de operaciones y vuelve a exportar.\n',
    ]);
    const orphan = await operationsExport({ prisma, session: sessionAs('MERCHANT_VIEWER'), params: {}, lang: 'es' });
    expect(orphan.status).toBe(403);
    const tooMany = await operationsExport({ prisma, session: sessionAs('SUPPORT'), params: {}, lang: 'es', maxRows: 4 });
    expect([tooMany.status, await tooMany.text()]).toEqual([
      422,
      'Hay 5 operaciones con estos filtros y la exportación admite hasta 4. Acota las fechas u otros filtros.\n',
    ]);
  });

  it('reads amounts in soles and days in Lima, as the page does', async () => {
    const numberOf = new Map(Object.entries(ids).map(([name, id]) => [id, name]));
    const numbers = async (params: Record<string, string>) =>
      (await (await exported(params)).text())
        .split('\r\n')
        .slice(1, -1)
        .map((line) => numberOf.get(line.split(',')[0]!));
    expect(await numbers({ max: '25', sort: 'amount_asc' })).toEqual(['a-qr']);
    expect(await numbers({ min: '149,99', state: 'DENEGADO' })).toEqual(['a-declined']);
    expect(await numbers({ from: '2000-01-01', to: '2000-01-31' })).toEqual([]);
  });
});

describe('operationsCsv', () => {
  it('walks the cursor batch by batch and writes every row once, in the sort asked for', async () => {
    const stream = operationsCsv(prisma, { kind: 'all' }, { sort: 'amount_asc' }, { batch: 2 });
    const lines = (await new Response(stream).text()).split('\r\n').slice(1, -1);
    expect(lines).toHaveLength(5);
    expect(lines.map((line) => line.split(',')[0])).toContain(ids['a-qr']);
    expect(lines[0]!.startsWith(`${ids['a-qr']},`)).toBe(true);
    expect(new Set(lines.map((line) => line.split(',')[0])).size).toBe(5);
  });

  it('stops at the row limit', async () => {
    const stream = operationsCsv(prisma, { kind: 'all' }, {}, { batch: 2, maxRows: 3 });
    expect((await new Response(stream).text()).split('\r\n').slice(1, -1)).toHaveLength(3);
  });
});
