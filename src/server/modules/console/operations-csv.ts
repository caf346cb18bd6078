import type { Db } from '@/server/platform/db/client';
import { env } from '@/env';
import { wallClock } from '@/server/core/domain/business-day';
import { CURRENCIES, formatDecimal, isSupportedCurrency } from '@/server/core/domain/money';
import { listOperations, type OperationFilters, type OperationRow } from './list-operations';
import type { MerchantScope } from '@/server/modules/access/merchant-scope';
import { logError } from '@/server/platform/log';

// The operations table as a CSV file (RFC 4180: quoted where needed, CRLF; UTF-8 with a BOM so
// spreadsheets read accents). Cells a spreadsheet would run as a formula get a leading quote.
// Rows come from listOperations a batch at a time, so a large export never sits in memory.
export const MAX_EXPORT_ROWS = 100_000;
const BATCH = 200;

export const CSV_HEADER = [
  'transaction_id',
  'merchant_code',
  'merchant_name',
  'merchant_operation_number',
  'method',
  'state',
  'amount',
  'currency',
  'amount_cents',
  'card_brand',
  'masked_pan',
  'payer_name',
  'payer_email',
  'created_at_utc',
  'created_at_local',
] as const;

/** One cell: formula-looking text is made inert, then quoted when it holds a quote, comma or line break. */
export function csvCell(value: string): string {
  const inert = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(inert) ? `"${inert.replaceAll('"', '""')}"` : inert;
}

export function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** `2026-11-21 10:04:05`: the wall clock of the business time zone (BUSINESS_TIME_ZONE), as spreadsheets read dates. */
export function businessClock(): Intl.DateTimeFormat {
  return wallClock('sv-SE', env().BUSINESS_TIME_ZONE);
}

function operationCells(row: OperationRow, clock: Intl.DateTimeFormat): string[] {
  const currency = row.currency;
  const known = isSupportedCurrency(currency);
  return [
    row.id,
    row.operation.merchant.code,
    row.operation.merchant.name,
    row.operation.merchantOperationNumber,
    row.method,
    row.state,
    known ? formatDecimal(row.amount, currency) : '',
    known ? CURRENCIES[currency].alpha : currency,
    row.amount.toString(),
    row.cardBrand ?? '',
    row.maskedPan ?? '',
    row.payerName ?? '',
    row.payerEmail ?? '',
    row.createdAt.toISOString(),
    clock.format(row.createdAt),
  ];
}

/** The file of every operation matching the filters (the cursor in them is ignored), at most `maxRows`. */
export function operationsCsv(
  prisma: Db,
  scope: MerchantScope,
  filters: OperationFilters,
  { maxRows = MAX_EXPORT_ROWS, batch = BATCH }: { maxRows?: number; batch?: number } = {},
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const clock = businessClock();
  let cursor: string | undefined;
  let written = 0;
  const nextPage = () => listOperations(prisma, scope, { ...filters, cursor, limit: Math.min(batch, maxRows - written) });
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(`\uFEFF${csvLine(CSV_HEADER)}`));
      },
      async pull(controller) {
        const page = await nextPage().catch((error: unknown) => {
          // Headers are gone: the download ends short and the browser reports it failed.
          logError('operations export failed', error, { written });
          throw error;
        });
        if (page.rows.length > 0)
          controller.enqueue(encoder.encode(page.rows.map((row) => csvLine(operationCells(row, clock))).join('')));
        written += page.rows.length;
        cursor = page.nextCursor ?? undefined;
        if (!cursor || written >= maxRows) controller.close();
      },
    },
    { highWaterMark: 1 },
  );
}
