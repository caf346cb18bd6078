import { describe, expect, it } from 'vitest';
import { withTestDatabase } from '@tests/support/procedure-test-support';
import { metricsText } from '@/server/http/metrics';
import { statementsSent } from './statement-count';

const fixture = withTestDatabase();

describe('statements sent', () => {
  it('counts each statement, and a transaction as its statements plus its BEGIN and its COMMIT or ROLLBACK', async () => {
    const start = statementsSent();
    await fixture.db.prisma.$queryRawUnsafe('SELECT 1');
    await fixture.db.prisma.$executeRawUnsafe('SELECT 2');
    expect(statementsSent() - start).toBe(2);

    const beforeCommit = statementsSent();
    await fixture.db.prisma.$transaction(async (tx) => {
      await tx.$queryRawUnsafe('SELECT 1');
      await tx.$queryRawUnsafe('SELECT 2');
    });
    // BEGIN, the two statements, COMMIT.
    expect(statementsSent() - beforeCommit).toBe(4);

    const beforeRollback = statementsSent();
    await expect(
      fixture.db.prisma.$transaction(async (tx) => {
        await tx.$queryRawUnsafe('SELECT 1');
        throw new Error('give up');
      }),
    ).rejects.toThrow('give up');
    expect(statementsSent() - beforeRollback).toBe(3);
  });

  it('is on /api/metrics as pay_db_statements_total, growing with the statements', async () => {
    const read = async () => {
      const { body } = await metricsText(fixture.db.prisma);
      const line = body.split('\n').find((each) => each.startsWith('pay_db_statements_total '));
      return Number(line?.split(' ')[1]);
    };
    const first = await read();
    expect(first).toBeGreaterThan(0);
    await fixture.db.prisma.$queryRawUnsafe('SELECT 1');
    await fixture.db.prisma.$queryRawUnsafe('SELECT 1');
    // The second scrape reads the database series from its cache: only the two statements are new.
    expect(await read()).toBe(first + 2);
  });
});
