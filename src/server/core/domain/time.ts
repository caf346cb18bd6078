export type TimeObject = { utc_time: string; unix_time: number };

/**
 * `millis`: `2026-11-21T15:04:05.123Z` (authorization, query and callback bodies);
 * `seconds`: `2026-11-21T15:04:05` (cancellation and refund bodies).
 */
export function toTimeObject(date: Date, style: 'millis' | 'seconds'): TimeObject {
  const iso = date.toISOString();
  return {
    utc_time: style === 'millis' ? iso : iso.slice(0, 19),
    unix_time: Math.floor(date.getTime() / 1000),
  };
}

/** The instant `seconds` after `date`. */
export function addSeconds(date: Date, seconds: number): Date {
  return new Date(date.getTime() + seconds * 1000);
}
