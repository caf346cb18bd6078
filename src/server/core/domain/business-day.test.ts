import { describe, expect, it } from 'vitest';
import { endOfDayExclusive, startOfDay, wallClock } from './business-day';

describe('business days', () => {
  it('starts a Lima day at 05:00 UTC', () => {
    expect(startOfDay('2026-11-21', 'America/Lima').toISOString()).toBe('2026-11-21T05:00:00.000Z');
    expect(endOfDayExclusive('2026-11-21', 'America/Lima').toISOString()).toBe('2026-11-22T05:00:00.000Z');
  });

  it('follows daylight saving time', () => {
    expect(startOfDay('2026-07-01', 'America/New_York').toISOString()).toBe('2026-07-01T04:00:00.000Z');
    expect(startOfDay('2026-01-15', 'America/New_York').toISOString()).toBe('2026-01-15T05:00:00.000Z');
    expect(endOfDayExclusive('2026-12-31', 'UTC').toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  it('reads wall clocks with one format per locale and zone', () => {
    const instant = new Date('2026-11-21T15:04:05.123Z');
    expect(wallClock('sv-SE', 'America/Lima').format(instant)).toBe('2026-11-21 10:04:05');
    expect(wallClock('sv-SE', 'Asia/Tokyo').format(instant)).toBe('2026-11-22 00:04:05');
    expect(wallClock('sv-SE', 'America/Lima')).toBe(wallClock('sv-SE', 'America/Lima'));
    expect(wallClock('en-US', 'America/Lima')).not.toBe(wallClock('sv-SE', 'America/Lima'));
  });
});
