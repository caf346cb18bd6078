import { wallClock } from '@/server/core/domain/business-day';
import { formatMoney, isSupportedCurrency } from '@/server/core/domain/money';
import { intlLocale, type ConsoleLang } from './i18n';

// Display helpers of the console: money by currency, instants in the business time zone (the
// service's BUSINESS_TIME_ZONE, which pages read with businessZone() and pass down).

export function money(cents: string, currency: string): string {
  return isSupportedCurrency(currency) ? formatMoney(BigInt(cents), currency) : `${cents} (${currency})`;
}

/** An instant as the wall clock of the business time zone, written the console language's way. */
export function businessTime(iso: string, lang: ConsoleLang, zone: string): string {
  return wallClock(intlLocale(lang), zone).format(new Date(iso));
}

/** How column headers name a time zone: its city (America/Lima: Lima; America/Argentina/Buenos_Aires: Buenos Aires). */
export function zoneName(zone: string): string {
  return (zone.split('/').at(-1) ?? zone).replaceAll('_', ' ');
}

/** The instant of a refund body's time object (UTC written without the Z, docs/interface.md 2.1). */
export function refundInstant(date: { utc_time: string }): string {
  return `${date.utc_time}Z`;
}
