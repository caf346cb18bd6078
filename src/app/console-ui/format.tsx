import type { Formats, useFormatter } from 'next-intl';
import { WALL_CLOCK } from '@/server/core/domain/business-day';
import { CURRENCIES, formatDecimal, isSupportedCurrency } from '@/server/core/domain/money';
import { intlLocale, type ConsoleLang } from './i18n';

// Dates and money on console pages, through next-intl's formatter (getFormatter on the server,
// useFormatter in client components) and the named formats below, declared once in the request
// configuration (src/i18n/request.ts) and the layout's client provider. The formatter's time zone
// is the business time zone (BUSINESS_TIME_ZONE) and its locale the Intl locale of the console
// language (i18n.ts, intlLocale: day before month in both).

export type ConsoleFormatter = ReturnType<typeof useFormatter>;

export const CONSOLE_FORMATS = {
  dateTime: {
    /** `21/11/2026, 13:30:00`: the wall clock of the formatter's time zone, 24-hour. */
    business: WALL_CLOCK,
  },
  number: {
    /** The digits of an amount in the currency's unit: `1,234.50` (the currency's symbol goes before it). */
    money: { minimumFractionDigits: 2, maximumFractionDigits: 2 },
  },
} as const satisfies Formats;

/** What next-intl needs to format as the console does, for a language and the business time zone. */
export function consoleIntlConfig(lang: ConsoleLang, zone: string) {
  return { locale: intlLocale(lang), timeZone: zone, formats: CONSOLE_FORMATS };
}

/**
 * Cents of a currency as the console writes them: `S/ 1,234.50`. The amount reaches Intl as the
 * exact decimal text of the cents (formatDecimal, no float): Intl.NumberFormat reads a string
 * as an exact decimal (ECMA-402, NumberFormat v3) and next-intl passes the value to it as it
 * is, though its type names only number and bigint.
 */
export function money(format: ConsoleFormatter, cents: string, currency: string): string {
  if (!isSupportedCurrency(currency)) return `${cents} (${currency})`;
  const { symbol, minorDigits } = CURRENCIES[currency];
  const value = BigInt(cents);
  const magnitude = formatDecimal(value < 0n ? -value : value, currency) as unknown as number;
  const digits = format.number(magnitude, 'money', { minimumFractionDigits: minorDigits, maximumFractionDigits: minorDigits });
  return `${value < 0n ? '-' : ''}${symbol} ${digits}`;
}

/** An instant as the wall clock of the business time zone, written the console language's way. */
export function businessTime(format: ConsoleFormatter, iso: string): string {
  return format.dateTime(new Date(iso), 'business');
}

/** How column headers name a time zone: its city (America/Lima: Lima; America/Argentina/Buenos_Aires: Buenos Aires). */
export function zoneName(zone: string): string {
  return (zone.split('/').at(-1) ?? zone).replaceAll('_', ' ');
}

/** The instant of a refund body's time object (UTC written without the Z, docs/interface.md 2.1). */
export function refundInstant(date: { utc_time: string }): string {
  return `${date.utc_time}Z`;
}
