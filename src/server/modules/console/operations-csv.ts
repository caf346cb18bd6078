import type { Db } from '@/server/platform/db/client';
import { CURRENCIES, formatDecimal, isSupportedCurrency } from '@/server/core/domain/money';
import { listOperations, type OperationFilters, type OperationRow } from './list-operations';
import type { MerchantScope } from '@/server/modules/access/merchant-scope';
import { logError } from '@/server/platform/log';
import { moneyView, resolvedSum } from './money-view';
import { businessClock, csvLine, csvStart, MAX_EXPORT_ROWS } from './csv';

// The operations table as a CSV file (csv.ts: cells, encoding, limit). Rows come from
// listOperations a batch at a time, so a large export never sits in memory.
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
  'captured_amount',
  'refunded_amount',
  'refund_in_process_amount',
  'card_brand',
  'masked_pan',
  'payer_name',
  'payer_email',
  'created_at_utc',
  'created_at_local',
] as const;

function operationCells(row: OperationRow, clock: Intl.DateTimeFormat): string[] {
  const currency = row.currency;
  const known = isSupportedCurrency(currency);
  const figures = moneyView({ ...row, resolvedRefunds: resolvedSum(row.refunds) });
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
    ...[figures.captured, figures.refunded, figures.refundInProcess].map((cents) =>
      cents === null || !known ? '' : formatDecimal(BigInt(cents), currency),
    ),
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
        controller.enqueue(encoder.encode(csvStart(CSV_HEADER)));
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
