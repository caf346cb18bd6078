import type { Db } from '@/server/platform/db/client';
import { CURRENCIES, formatDecimal, isSupportedCurrency } from '@/server/core/domain/money';
import { refundFilters, type RefundFilters, type RefundObject } from '@/server/core/interface/refund';
import type { MerchantScope } from '@/server/modules/access/merchant-scope';
import { consoleRefunds } from '@/server/modules/refunds/console-refunds';
import { logError } from '@/server/platform/log';
import { businessClock, csvDownload, csvLine, csvStart, MAX_EXPORT_ROWS, openExport, type ExportInput } from './csv';

// GET /refunds/export?<the refunds page's filters>: every refund the page would list with them
// (console.refunds' search, its scope included), as CSV, for any signed-in role within its
// merchants. Checks the session itself (the proxy only redirects). Rows are read a page at a time
// along the listing's cursor, so a large export never sits in memory; the first page's count
// (exact, docs/DESIGN.md 11) decides the row cap before anything is sent.
const BATCH = 200;

/** The refunds page's filters (its address), the cursor aside: the export is the whole set. */
const FILTER_KEYS = ['start_date', 'end_date', 'merchant_code', 'merchant_operation_number', 'transaction_id', 'state'] as const;

const HEAD = ['refund_id', 'merchant_operation_number', 'transaction_id', 'type', 'state'] as const;
const TAIL = [
  'amount',
  'currency',
  'amount_cents',
  'reason',
  'created_at_utc',
  'created_at_local',
  'updated_at_utc',
  'updated_at_local',
] as const;

/** The columns: the merchant's code only for platform staff, who see every merchant. */
export function refundsCsvHeader(scope: MerchantScope): string[] {
  return scope.kind === 'all' ? [HEAD[0], 'merchant_code', ...HEAD.slice(1), ...TAIL] : [...HEAD, ...TAIL];
}

type Filters = Omit<RefundFilters, 'limit' | 'cursor'>;

function filtersOf(params: Record<string, string | undefined>) {
  // A blank field is no filter, as on the page.
  const given = Object.fromEntries(FILTER_KEYS.filter((key) => params[key]?.trim()).map((key) => [key, params[key]!.trim()]));
  const parsed = refundFilters.safeParse(given);
  if (parsed.success) return { ok: true as const, filters: parsed.data as Filters };
  return { ok: false as const, invalid: [...new Set(parsed.error.issues.map((issue) => String(issue.path[0])))] };
}

function refundCells(refund: RefundObject, merchantCode: string | null, clock: Intl.DateTimeFormat): string[] {
  const currency = refund.currency;
  const known = isSupportedCurrency(currency);
  const at = (entry: RefundObject['lifecycle'][number]) => {
    const instant = new Date(`${entry.date.utc_time}Z`);
    return [`${entry.date.utc_time}Z`, clock.format(instant)];
  };
  return [
    refund.refund_id,
    ...(merchantCode === null ? [] : [merchantCode]),
    refund.merchant_operation_number,
    refund.transaction_id,
    refund.type,
    refund.state,
    known ? formatDecimal(BigInt(refund.refund_amount), currency) : '',
    known ? CURRENCIES[currency].alpha : currency,
    refund.refund_amount,
    refund.additional_fields.reason,
    ...at(refund.lifecycle[0]!),
    ...at(refund.lifecycle.at(-1)!),
  ];
}

/** The merchant codes of a page's refunds (the listing, as the API answers, does not name them). */
async function merchantCodes(prisma: Db, refunds: RefundObject[]): Promise<Map<string, string>> {
  const rows = await prisma.refund.findMany({
    where: { id: { in: refunds.map((refund) => refund.refund_id) } },
    select: { id: true, operation: { select: { merchant: { select: { code: true } } } } },
  });
  return new Map(rows.map((row) => [row.id, row.operation.merchant.code]));
}

export async function refundsExport(input: ExportInput & { batch?: number }): Promise<Response> {
  const { prisma } = input;
  const maxRows = input.maxRows ?? MAX_EXPORT_ROWS;
  const batch = input.batch ?? BATCH;
  const opened = openExport('refunds', input.lang, input.session, () => filtersOf(input.params));
  if (!opened.ok) return opened.response;
  const { scope, filters } = opened;
  const page = (cursor: string | undefined, limit: number) =>
    consoleRefunds(prisma, scope, { ...filters, limit: String(limit), ...(cursor ? { cursor } : {}) });
  const first = await page(undefined, Math.min(batch, maxRows));
  const count = Number(first.operations_count);
  if (count > maxRows) return opened.tooMany(count, maxRows);

  const header = refundsCsvHeader(scope);
  const clock = businessClock();
  const encoder = new TextEncoder();
  const lines = async (refunds: RefundObject[]) => {
    const codes = scope.kind === 'all' ? await merchantCodes(prisma, refunds) : null;
    return refunds
      .map((refund) => csvLine(refundCells(refund, codes ? (codes.get(refund.refund_id) ?? '') : null, clock)))
      .join('');
  };
  let next: typeof first | null = first;
  let cursor: string | undefined;
  let written = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(csvStart(header)));
      },
      async pull(controller) {
        try {
          const current = next ?? (await page(cursor, Math.min(batch, maxRows - written)));
          next = null;
          if (current.operations.length > 0) controller.enqueue(encoder.encode(await lines(current.operations)));
          written += current.operations.length;
          cursor = current.next_cursor ?? undefined;
          if (!cursor || written >= maxRows) controller.close();
        } catch (error) {
          // Headers are gone: the download ends short and the browser reports it failed.
          logError('refunds export failed', error, { written });
          throw error;
        }
      },
    },
    { highWaterMark: 1 },
  );
  return csvDownload(body, 'refunds', count, input.now ?? new Date());
}
