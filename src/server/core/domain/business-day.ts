// Calendar days of the business time zone (docs/DESIGN.md 11) as UTC instants.

/** Every part of a wall-clock reading, 24-hour: for Intl.DateTimeFormat with a time zone. */
export const WALL_CLOCK = {
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
} as const satisfies Intl.DateTimeFormatOptions;

const wallClocks = new Map<string, Intl.DateTimeFormat>();

/**
 * The wall-clock format of a locale in a time zone, made once: making an Intl.DateTimeFormat
 * costs far more than using one (a tenth of a filtered refund search's time, made four times
 * per search).
 */
export function wallClock(locale: string, timeZone: string): Intl.DateTimeFormat {
  const key = `${locale}|${timeZone}`;
  let format = wallClocks.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { timeZone, ...WALL_CLOCK });
    wallClocks.set(key, format);
  }
  return format;
}

function offsetMinutes(instant: Date, timeZone: string): number {
  const parts = wallClock('en-US', timeZone).formatToParts(instant);
  const value = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  const asUtc = Date.UTC(value('year'), value('month') - 1, value('day'), value('hour'), value('minute'), value('second'));
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
}

/** The instant a `YYYY-MM-DD` day starts in the zone. */
export function startOfDay(day: string, timeZone: string): Date {
  const naive = new Date(`${day}T00:00:00Z`);
  const first = new Date(naive.getTime() - offsetMinutes(naive, timeZone) * 60_000);
  return new Date(naive.getTime() - offsetMinutes(first, timeZone) * 60_000);
}

/** The instant the day after `day` starts: the exclusive end of an inclusive date filter. */
export function endOfDayExclusive(day: string, timeZone: string): Date {
  const next = new Date(`${day}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return startOfDay(next.toISOString().slice(0, 10), timeZone);
}
