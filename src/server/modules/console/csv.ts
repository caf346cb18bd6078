import { env } from '@/env';
import { wallClock } from '@/server/core/domain/business-day';
import { isAppError } from '@/server/core/domain/errors';
import type { ConsoleSession } from '@/server/modules/access/console-session';
import { scopeOf, type MerchantScope } from '@/server/modules/access/merchant-scope';
import type { Db } from '@/server/platform/db/client';

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

const NOUNS = { operations: { es: 'operaciones', en: 'operations' }, refunds: { es: 'reembolsos', en: 'refunds' } };

/** The refusals of the export of `what`, in the visitor's language. */
function refusalTexts(what: keyof typeof NOUNS, lang: 'es' | 'en') {
  const noun = NOUNS[what][lang];
  return lang === 'es'
    ? {
        signIn: `Inicia sesión en la consola para exportar ${noun}.`,
        forbidden: 'Tu usuario no tiene un comercio asignado.',
        invalid: (names: string) =>
          `Los filtros no son válidos (${names}). Corrígelos en la página de ${noun} y vuelve a exportar.`,
        tooMany: (count: number, max: number) =>
          `Hay ${count} ${noun} con estos filtros y la exportación admite hasta ${max}. Acota las fechas u otros filtros.`,
      }
    : {
        signIn: `Sign in to the console to export ${noun}.`,
        forbidden: 'Your user has no merchant.',
        invalid: (names: string) => `The filters are not valid (${names}). Fix them on the ${noun} page and export again.`,
        tooMany: (count: number, max: number) =>
          `${count} ${noun} match these filters and an export holds at most ${max}. Narrow the dates or other filters.`,
      };
}

type Parsed<F> = { ok: true; filters: F } | { ok: false; invalid: string[] };

/**
 * An export's opening, the same for every one: a session (401), filters that parse (400, naming
 * the bad ones), a user with merchants to see (403). Then its scope, its filters, and the refusal
 * to answer when the set is over the cap (422).
 */
export function openExport<F>(
  what: keyof typeof NOUNS,
  lang: 'es' | 'en',
  session: ConsoleSession | null,
  parse: () => Parsed<F>,
):
  | { ok: false; response: Response }
  | { ok: true; scope: MerchantScope; filters: F; tooMany: (count: number, max: number) => Response } {
  const text = refusalTexts(what, lang);
  if (!session) return { ok: false, response: csvRefusal(401, text.signIn) };
  const parsed = parse();
  if (!parsed.ok) return { ok: false, response: csvRefusal(400, text.invalid(parsed.invalid.join(', '))) };
  try {
    const scope = scopeOf(session);
    return { ok: true, scope, filters: parsed.filters, tooMany: (count, max) => csvRefusal(422, text.tooMany(count, max)) };
  } catch (error) {
    if (isAppError(error)) return { ok: false, response: csvRefusal(error.status, text.forbidden) };
    throw error;
  }
}

/** What a console download is asked with: the session, the page's filters, the language; tests bound its size. */
export type ExportInput = {
  prisma: Db;
  session: ConsoleSession | null;
  params: Record<string, string | undefined>;
  lang: 'es' | 'en';
  now?: Date;
  maxRows?: number;
};
