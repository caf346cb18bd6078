import { describe, expect, it } from 'vitest';
import { addSeconds, toTimeObject } from './time';

describe('toTimeObject', () => {
  const date = new Date('2026-11-21T15:04:05.123Z');

  it('writes milliseconds and Z in the millis style', () => {
    expect(toTimeObject(date, 'millis')).toEqual({
      utc_time: '2026-11-21T15:04:05.123Z',
      unix_time: 1_795_273_445,
    });
  });

  it('drops the fraction and the Z in the seconds style', () => {
    expect(toTimeObject(date, 'seconds')).toEqual({
      utc_time: '2026-11-21T15:04:05',
      unix_time: 1_795_273_445,
    });
  });

  it('floors unix_time to the second (never rounds up)', () => {
    const late = new Date('2026-11-21T15:04:05.999Z');
    expect(toTimeObject(late, 'millis').unix_time).toBe(1_795_273_445);
    expect(toTimeObject(late, 'seconds')).toEqual({
      utc_time: '2026-11-21T15:04:05',
      unix_time: 1_795_273_445,
    });
  });

  it('writes UTC whatever the instant and pads milliseconds', () => {
    expect(toTimeObject(new Date(0), 'millis')).toEqual({
      utc_time: '1970-01-01T00:00:00.000Z',
      unix_time: 0,
    });
    expect(toTimeObject(new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)), 'millis').utc_time).toBe('2026-01-02T03:04:05.006Z');
  });
});

describe('addSeconds', () => {
  it('adds whole seconds without touching the argument', () => {
    const now = new Date('2026-11-21T15:04:05.123Z');
    expect(addSeconds(now, 1800).toISOString()).toBe('2026-11-21T15:34:05.123Z');
    expect(addSeconds(now, 86_400).toISOString()).toBe('2026-11-22T15:04:05.123Z');
    expect(now.toISOString()).toBe('2026-11-21T15:04:05.123Z');
  });
});
