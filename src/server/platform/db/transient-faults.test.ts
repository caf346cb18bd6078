import { describe, expect, it } from 'vitest';
import { isTransientDatabaseFault, persistently } from './transient-faults';

describe('transient database faults', () => {
  it.each([
    [
      'PostgreSQL shutting down (57P03), as the driver adapter wraps it',
      { meta: { driverAdapterError: { cause: { kind: 'postgres', originalCode: '57P03' } } } },
    ],
    [
      'an administrator terminating the connection (57P01)',
      { code: '57P01', message: 'terminating connection due to administrator command' },
    ],
    ['a connection exception (08006)', { code: '08006' }],
    ['a serialization failure (40001)', { code: '40001' }],
    ['a deadlock (40P01)', { cause: { code: '40P01' } }],
    ['too many connections (53300)', { code: '53300' }],
    ['Prisma: server unreachable', { code: 'P1001' }],
    ['Prisma: connection closed', { code: 'P1017' }],
    ['Prisma: write conflict', { code: 'P2034' }],
    ['the adapter: connection refused', { cause: { kind: 'DatabaseNotReachable' } }],
    ['a socket refused', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['node-postgres losing its connection (no code)', new Error('Connection terminated unexpectedly')],
    ['wrapped twice', new Error('outer', { cause: new Error('inner', { cause: { code: '57P02' } }) })],
  ])('%s is transient', (_label, error) => {
    expect(isTransientDatabaseFault(error)).toBe(true);
  });

  it.each([
    ['a unique violation', { code: 'P2002' }],
    ['a SQL syntax error (42601)', { code: '42601' }],
    ['a check violation (23514)', { meta: { driverAdapterError: { cause: { kind: 'postgres', originalCode: '23514' } } } }],
    ['a programming error', new TypeError('x is undefined')],
    ['nothing', undefined],
    ['a string', 'Connection terminated'],
  ])('%s is not', (_label, error) => {
    expect(isTransientDatabaseFault(error)).toBe(false);
  });

  it('persistently runs a write again while the fault is transient, and gives up at once on any other', async () => {
    let calls = 0;
    const landed = await persistently(async () => {
      calls += 1;
      if (calls < 3) throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
      return 'stored';
    });
    expect(landed).toBe('stored');
    expect(calls).toBe(3);

    let refused = 0;
    const unique = Object.assign(new Error('unique'), { code: 'P2002' });
    await expect(
      persistently(async () => {
        refused += 1;
        throw unique;
      }),
    ).rejects.toBe(unique);
    expect(refused).toBe(1);
  });
});
