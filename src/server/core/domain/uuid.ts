// Ids the service issues are UUIDs; any other text names nothing (never a database error).
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** An id no row has (the warm-up's statements match nothing with it). */
export const NIL_UUID = '00000000-0000-0000-0000-000000000000';
