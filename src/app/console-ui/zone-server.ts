import { env } from '@/env';

/** The business time zone (BUSINESS_TIME_ZONE), for a server-rendered page to show instants in. */
export function businessZone(): string {
  return env().BUSINESS_TIME_ZONE;
}
