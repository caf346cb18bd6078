import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { NextIntlClientProvider } from 'next-intl';
import messages from '@/messages/es.json';
import { describe, expect, it, vi } from 'vitest';
import { businessClock } from '@/server/modules/console/csv';
import { operationsUrlFilters } from '@/server/modules/console/operations-url';
import { businessTime, zoneName } from './format';
import { Timeline } from './timeline';
import { businessZone } from './zone-server';

// The console shows and filters instants in the service's BUSINESS_TIME_ZONE, not a fixed Lima:
// here Tokyo (UTC+9, no daylight saving), set before anything reads the configuration.
vi.stubEnv('BUSINESS_TIME_ZONE', 'Asia/Tokyo');

const INSTANT = '2026-11-21T04:30:00.000Z'; // 23:30 on the 20th in Lima, 13:30 on the 21st in Tokyo

describe('the business time zone in the console', () => {
  it('is the configured one', () => {
    expect(businessZone()).toBe('Asia/Tokyo');
  });

  it('writes an instant as the wall clock of the zone it is given, in the console language', () => {
    expect(businessTime(INSTANT, 'es', businessZone())).toBe('21/11/2026, 13:30:00');
    expect(businessTime(INSTANT, 'es', 'America/Lima')).toBe('20/11/2026, 23:30:00');
    // English follows Peru's order too, day first (CLDR has no en-PE: i18n.ts, intlLocale).
    expect(businessTime(INSTANT, 'en', businessZone())).toBe('21/11/2026, 13:30:00');
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
        locale: 'es',
        messages,
        timeZone: 'America/Lima',
        children: createElement(Timeline, {
          label: 'Ciclo de vida',
          entries: [{ state: 'REGISTERED', iso: INSTANT }],
          lang: 'es',
          zone: businessZone(),
        }),
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
