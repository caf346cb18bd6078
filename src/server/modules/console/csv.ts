import { env } from '@/env';
import { wallClock } from '@/server/core/domain/business-day';

// What the console's CSV exports (operations, refunds) share: RFC 4180 cells (quoted where
// needed, CRLF), made inert where a spreadsheet would run them as a formula; UTF-8 with a byte-order
// mark so spreadsheets read accents; the row cap; and the plain-text refusal in the visitor's language.
export const MAX_EXPORT_ROWS = 100_000;

/** One cell: formula-looking text is made inert, then quoted when it holds a quote, comma or line break. */
export function csvCell(value: string): string {
  const inert = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(inert) ? `"${inert.replaceAll('"', '""')}"` : inert;
}

export function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** The first bytes of a file: the byte-order mark and the header row. */
export function csvStart(header: readonly string[]): string {
  return `\uFEFF${csvLine(header)}`;
}

/** `2026-11-21 10:04:05`: the wall clock of the business time zone (BUSINESS_TIME_ZONE), as spreadsheets read dates. */
export function businessClock(): Intl.DateTimeFormat {
  return wallClock('sv-SE', env().BUSINESS_TIME_ZONE);
}

const PRIVATE = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

/** An export refused: a sentence for the visitor, never cached. */
export function csvRefusal(status: number, message: string): Response {
  return new Response(`${message}\n`, { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...PRIVATE } });
}

/** The file as a download named `<name>-<business day>.csv`, with how many rows it holds. */
export function csvDownload(body: ReadableStream<Uint8Array>, name: string, rows: number, now: Date): Response {
  const day = businessClock().format(now).slice(0, 10);
  return new Response(body, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${name}-${day}.csv"`,
      ...PRIVATE,
      'x-total-rows': String(rows),
    },
  });
}
