import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { createFormatter, NextIntlClientProvider } from 'next-intl';
import messages from '@/messages/es.json';
import { describe, expect, it, vi } from 'vitest';
import { businessClock } from '@/server/modules/console/csv';
import { operationsUrlFilters } from '@/server/modules/console/operations-url';
import { businessTime, consoleIntlConfig, money, zoneName } from './format';
import type { ConsoleLang } from './i18n';
import { Timeline } from './timeline';
import { businessZone } from './zone-server';

// The console shows and filters instants in the service's BUSINESS_TIME_ZONE, not a fixed Lima:
// here Tokyo (UTC+9, no daylight saving), set before anything reads the configuration.
vi.stubEnv('BUSINESS_TIME_ZONE', 'Asia/Tokyo');

const INSTANT = '2026-11-21T04:30:00.000Z'; // 23:30 on the 20th in Lima, 13:30 on the 21st in Tokyo

/** The console's formatter for a language, as the request configuration makes it. */
const formatter = (lang: ConsoleLang, zone = businessZone()) => createFormatter(consoleIntlConfig(lang, zone));

describe('the business time zone in the console', () => {
  it('is the configured one', () => {
    expect(businessZone()).toBe('Asia/Tokyo');
  });

  it("writes an instant through next-intl's formatter as the wall clock of its zone, in the console language", () => {
    expect(businessTime(formatter('es'), INSTANT)).toBe('21/11/2026, 13:30:00');
    expect(businessTime(formatter('es', 'America/Lima'), INSTANT)).toBe('20/11/2026, 23:30:00');
    // English follows Peru's order too, day first (CLDR has no en-PE: i18n.ts, intlLocale).
    expect(businessTime(formatter('en'), INSTANT)).toBe('21/11/2026, 13:30:00');
  });

  it("writes cents as the currency's unit with its symbol, exactly, in both languages", () => {
    for (const lang of ['es', 'en'] as const) {
      const format = formatter(lang);
      expect(money(format, '15000', '604')).toBe('S/ 150.00');
      expect(money(format, '5', '840')).toBe('US$ 0.05');
      expect(money(format, '123456789', '604')).toBe('S/ 1,234,567.89');
      // Twelve digits of cents (the interface's most) and beyond: the digits are the cents', never a float's.
      expect(money(format, '999999999999', '604')).toBe('S/ 9,999,999,999.99');
      expect(money(format, '90071992547409934', '604')).toBe('S/ 900,719,925,474,099.34');
      expect(money(format, '-250', '604')).toBe('-S/ 2.50');
      expect(money(format, '700', '999')).toBe('700 (999)');
    }
  });

  it('names the zone by its city in column headers', () => {
    expect(zoneName('America/Lima')).toBe('Lima');
    expect(zoneName('Asia/Tokyo')).toBe('Tokyo');
    expect(zoneName('America/Argentina/Buenos_Aires')).toBe('Buenos Aires');
    expect(zoneName('UTC')).toBe('UTC');
  });

  it('renders a lifecycle at the times of the zone, the UTC instant on hover', () => {
    const html = renderToStaticMarkup(
      createElement(NextIntlClientProvider, {
        ...consoleIntlConfig('es', businessZone()),
        messages,
        children: createElement(Timeline, { label: 'Ciclo de vida', entries: [{ state: 'REGISTERED', iso: INSTANT }] }),
      }),
    );
    expect(html).toContain(`<time dateTime="${INSTANT}" title="UTC ${INSTANT}"`);
    expect(html).toContain('>21/11/2026, 13:30:00</time>');
  });

  it("reads the operations page's days as days of the zone", () => {
    expect(operationsUrlFilters({ from: '2026-11-21', to: '2026-11-21' })).toEqual({
      ok: true,
      filters: { from: '2026-11-20T15:00:00.000Z', to: '2026-11-21T15:00:00.000Z' },
    });
  });

  it("writes the CSV's local time column and file day in the zone", () => {
    expect(businessClock().format(new Date(INSTANT))).toBe('2026-11-21 13:30:00');
  });
});
