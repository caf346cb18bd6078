import { AppError } from '@/server/core/domain/errors';
import { isUuid } from '@/server/core/domain/uuid';

// Every page cursor the service hands out: base64url of its fields joined by `|`. A cursor comes
// back from the client, so each field is read back by a strict reader and anything else (a
// forged, cut or mixed-up cursor) is 400 `10` on `cursor`: a forged value never reaches a query.

/** Reads one field of a cursor; null when the text is not one the service writes. */
export type CursorField<T> = (text: string) => T | null;

const MAX_INT64 = 2n ** 63n - 1n;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A non-negative 64-bit integer in its shortest decimal form (a sequence number, an amount in cents). */
export const integer64: CursorField<bigint> = (text) => {
  if (!/^(0|[1-9][0-9]{0,18})$/.test(text)) return null;
  const value = BigInt(text);
  return value <= MAX_INT64 ? value : null;
};

/** A count, as the service writes it. */
export const count: CursorField<number> = (text) => (/^(0|[1-9][0-9]{0,14})$/.test(text) ? Number(text) : null);

/** An instant exactly as `Date.prototype.toISOString` writes it. */
export const instant: CursorField<Date> = (text) => {
  if (!ISO_INSTANT.test(text)) return null;
  const date = new Date(text);
  return !Number.isNaN(date.getTime()) && date.toISOString() === text ? date : null;
};

/** A row id. */
export const uuid: CursorField<string> = (text) => (isUuid(text) ? text.toLowerCase() : null);

/** A search digest (16 base64url characters). */
export const digest: CursorField<string> = (text) => (/^[\w-]{16}$/.test(text) ? text : null);

export function encodeCursor(fields: readonly (string | bigint | number | Date)[]): string {
  const texts = fields.map((field) => (field instanceof Date ? field.toISOString() : String(field)));
  return Buffer.from(texts.join('|')).toString('base64url');
}

export function invalidCursor(): AppError {
  const message = 'cursor is not one this service issued';
  return new AppError('VALIDATION', message, { errors: [{ field: 'cursor', code: 'invalid_cursor', message }] });
}

type Read<Fields> = { [K in keyof Fields]: Fields[K] extends CursorField<infer T> ? T : never };

/**
 * The fields of a cursor, each by its reader. With `required` below the number of readers, the
 * fields after it may be missing all together (a cursor of an older shape); their values are
 * then undefined. Throws 400 `10` for anything else.
 */
export function decodeCursor<const Fields extends readonly CursorField<unknown>[]>(
  value: string,
  fields: Fields,
  required: number = fields.length,
): Read<Fields> {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(value)) throw invalidCursor();
  const texts = Buffer.from(value, 'base64url').toString('utf8').split('|');
  if (texts.length !== fields.length && texts.length !== required) throw invalidCursor();
  const values = fields.map((read, index) => {
    const text = texts[index];
    if (text === undefined) return undefined;
    const field = read(text);
    if (field === null) throw invalidCursor();
    return field;
  });
  return values as Read<Fields>;
}
