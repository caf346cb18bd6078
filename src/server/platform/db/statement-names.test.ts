import { describe, expect, it } from 'vitest';
import type { SqlQuery } from '@prisma/driver-adapter-utils';
import { statementNamer } from './statement-names';

const query = (sql: string, parameters = 0) =>
  ({ sql, args: Array.from({ length: parameters }, () => 1), argTypes: [] }) as unknown as SqlQuery;

describe('statementNamer', () => {
  it('names each text once and gives the same text the same name', () => {
    const name = statementNamer();
    expect(name(query('SELECT 1'))).toBe('s1');
    expect(name(query('SELECT 2'))).toBe('s2');
    expect(name(query('SELECT 1'))).toBe('s1');
  });

  it('leaves texts past the first 500 unnamed, and keeps naming the known ones', () => {
    const name = statementNamer();
    for (let index = 0; index < 500; index += 1) name(query(`SELECT ${index}`));
    expect(name(query('SELECT 500'))).toBe('');
    expect(name(query('SELECT 0'))).toBe('s1');
    expect(name(query('SELECT 499'))).toBe('s500');
  });

  it('leaves statements of more than 32 parameters unnamed (lists whose length varies)', () => {
    const name = statementNamer();
    expect(name(query('SELECT $1 ... $32', 32))).toBe('s1');
    expect(name(query('SELECT $1 ... $33', 33))).toBe('');
    expect(name(query('SELECT 1'))).toBe('s2');
  });

  it('gives two namers their own names (one per database handle)', () => {
    const first = statementNamer();
    const second = statementNamer();
    first(query('SELECT 1'));
    expect(second(query('SELECT 2'))).toBe('s1');
  });
});
