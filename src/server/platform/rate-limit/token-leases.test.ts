import { describe, expect, it } from 'vitest';
import { leaseSize, TokenLeases } from './token-leases';

describe('leaseSize', () => {
  it('takes 50 ms of the rate at once, at least one and at most the burst', () => {
    expect(leaseSize(100, 200)).toBe(5);
    expect(leaseSize(19, 38)).toBe(1);
    expect(leaseSize(2, 4)).toBe(1);
    expect(leaseSize(0.1, 5)).toBe(1);
    expect(leaseSize(1_000_000, 3)).toBe(3);
  });
});

describe('TokenLeases', () => {
  it('spends exactly the tokens it holds, then sends the caller to the shared bucket', () => {
    const leases = new TokenLeases(10);
    expect(leases.spend('a', 0)).toBe(false);
    leases.add('a', 2, 0);
    expect(leases.spend('a', 10)).toBe(true);
    expect(leases.spend('a', 20)).toBe(true);
    expect(leases.spend('a', 30)).toBe(false);
    expect(leases.spend('b', 30)).toBe(false);
  });

  it('lets unspent tokens lapse after a second, and adds to a fresh lease', () => {
    const leases = new TokenLeases(10);
    leases.add('a', 3, 0);
    leases.add('a', 2, 500);
    for (let spent = 0; spent < 5; spent += 1) expect(leases.spend('a', 900)).toBe(true);
    expect(leases.spend('a', 900)).toBe(false);
    leases.add('a', 4, 1_000);
    expect(leases.spend('a', 2_000)).toBe(false);
  });

  it('holds at most maxKeys keys, making room from lapsed leases', () => {
    const leases = new TokenLeases(2);
    leases.add('a', 1, 0);
    leases.add('b', 1, 0);
    leases.add('c', 1, 10);
    expect(leases.spend('c', 20)).toBe(false);
    leases.add('c', 1, 1_500);
    expect(leases.spend('c', 1_600)).toBe(true);
  });
});
