import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { toAppError } from './to-app-error';

describe('a transient database fault in a procedure', () => {
  it('is 503 02 with Retry-After, not 500, however the procedure wrapped it', () => {
    const shutdown = { meta: { driverAdapterError: { cause: { kind: 'postgres', originalCode: '57P03' } } } };
    const failure = toAppError(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: Object.assign(new Error('x'), shutdown) }));
    expect({ kind: failure.kind, status: failure.status, headers: failure.headers }).toEqual({
      kind: 'UNAVAILABLE',
      status: 503,
      headers: { 'Retry-After': '1' },
    });
  });

  it('leaves a fault that is not transient a 500', () => {
    expect(toAppError(new Error('a bug')).status).toBe(500);
  });
});
