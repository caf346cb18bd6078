import { describe, expect, it } from 'vitest';
import { AppError } from '@/server/core/domain/errors';
import { count, decodeCursor, digest, encodeCursor, instant, integer64, uuid } from './cursor';

const ID = '0b5e8f1c-2d3a-4b6c-8d9e-0f1a2b3c4d5e';
const AT = new Date('2026-01-01T00:00:00.000Z');
const b64 = (text: string) => Buffer.from(text).toString('base64url');

function refusal(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { kind: error.kind, errors: error.errors };
  }
  throw new Error('expected a refusal');
}

const REFUSED = {
  kind: 'VALIDATION',
  errors: [{ field: 'cursor', code: 'invalid_cursor', message: 'cursor is not one this service issued' }],
};

describe('page cursors', () => {
  it('read back every field they were written with', () => {
    const cursor = encodeCursor([AT, ID, 12, 'abcdefghijklmnop']);
    expect(decodeCursor(cursor, [instant, uuid, count, digest])).toStrictEqual([AT, ID, 12, 'abcdefghijklmnop']);
    expect(decodeCursor(encodeCursor([9_223_372_036_854_775_807n]), [integer64])).toStrictEqual([9_223_372_036_854_775_807n]);
  });

  it('leave optional trailing fields undefined when a cursor of the shorter shape comes back', () => {
    expect(decodeCursor(encodeCursor([AT, ID]), [instant, uuid, count, digest], 2)).toStrictEqual([AT, ID, undefined, undefined]);
  });

  it.each([
    ['36 dashes for an id (the 500 the attack suite found)', b64(`2026-01-01T00:00:00.000Z|${'-'.repeat(36)}`), 2],
    ['an amount that is no number', b64(`abc|${ID}`), 1],
    ['an instant that is no date', b64(`abc|${ID}`), 0],
    ['a date without its time', b64(`2026-01-01|${ID}`), 0],
    ['an instant that does not exist', b64(`2026-02-30T00:00:00.000Z|${ID}`), 0],
    ['a negative amount', b64(`-5|${ID}`), 1],
    ['an amount past 64 bits', b64(`9223372036854775808|${ID}`), 1],
    ['a leading zero', b64(`0012|${ID}`), 1],
    ['a missing id', b64('2026-01-01T00:00:00.000Z'), 0],
    ['a field too many', b64(`2026-01-01T00:00:00.000Z|${ID}|x`), 0],
    ['the empty string', '', 0],
    ['characters outside base64url', 'a+b/c=', 0],
    ['a very long value', 'A'.repeat(401), 0],
  ])('refuse %s with 400 10 on cursor', (_label, value, shape) => {
    const fields = [
      [instant, uuid],
      [integer64, uuid],
      [instant, uuid, count, digest],
    ][shape]!;
    expect(refusal(() => decodeCursor(value, fields, 2))).toStrictEqual(REFUSED);
  });

  it('refuse a count and digest of the wrong shape', () => {
    expect(
      refusal(() => decodeCursor(b64(`2026-01-01T00:00:00.000Z|${ID}|1e3|abcdefghijklmnop`), [instant, uuid, count, digest], 2)),
    ).toStrictEqual(REFUSED);
    expect(
      refusal(() => decodeCursor(b64(`2026-01-01T00:00:00.000Z|${ID}|3|short`), [instant, uuid, count, digest], 2)),
    ).toStrictEqual(REFUSED);
  });
});
