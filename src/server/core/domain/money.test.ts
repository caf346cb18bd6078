import { describe, expect, it } from 'vitest';
import {
  centsOfTypedAmount,
  CURRENCIES,
  formatCents,
  formatDecimal,
  formatMoney,
  isSupportedCurrency,
  parseCents,
  typedAmountOfCents,
} from './money';

describe('CURRENCIES', () => {
  it('lists PEN and USD by ISO 4217 numeric code', () => {
    expect(CURRENCIES).toEqual({
      '604': { alpha: 'PEN', symbol: 'S/', minorDigits: 2 },
      '840': { alpha: 'USD', symbol: 'US$', minorDigits: 2 },
    });
  });
});

describe('isSupportedCurrency', () => {
  it('accepts 604 and 840 only', () => {
    expect(isSupportedCurrency('604')).toBe(true);
    expect(isSupportedCurrency('840')).toBe(true);
    expect(isSupportedCurrency('978')).toBe(false);
    expect(isSupportedCurrency('PEN')).toBe(false);
    expect(isSupportedCurrency('')).toBe(false);
    expect(isSupportedCurrency('toString')).toBe(false);
    expect(isSupportedCurrency('__proto__')).toBe(false);
  });
});

describe('parseCents', () => {
  it.each([
    ['1', 1n],
    ['9', 9n],
    ['10', 10n],
    ['15000', 15000n],
    ['999999999999', 999_999_999_999n],
    ['100000000000', 100_000_000_000n],
  ])('%s -> %s', (value, cents) => {
    expect(parseCents(value)).toBe(cents);
  });

  it.each(['0', '00', '01', '0100', '1000000000000', '9999999999999', '', ' 1', '1 ', '1.5', '-1', '+1', '1e3', 'abc', '١٢'])(
    'refuses %j',
    (value) => {
      expect(parseCents(value)).toBeNull();
    },
  );
});

describe('formatCents', () => {
  it('writes the integer in decimal', () => {
    expect(formatCents(15000n)).toBe('15000');
    expect(formatCents(1n)).toBe('1');
    expect(formatCents(999_999_999_999n)).toBe('999999999999');
  });
});

describe('formatMoney', () => {
  it('formats soles (default locale es-PE)', () => {
    expect(formatMoney(15000n, '604')).toBe('S/ 150.00');
    expect(formatMoney(1n, '604')).toBe('S/ 0.01');
    expect(formatMoney(10n, '604')).toBe('S/ 0.10');
    expect(formatMoney(0n, '604')).toBe('S/ 0.00');
    expect(formatMoney(99999n, '604')).toBe('S/ 999.99');
    expect(formatMoney(100000n, '604')).toBe('S/ 1,000.00');
    expect(formatMoney(350000n, '604', 'es-PE')).toBe('S/ 3,500.00');
  });

  it('formats dollars', () => {
    expect(formatMoney(123456n, '840')).toBe('US$ 1,234.56');
    expect(formatMoney(123456n, '840', 'en-US')).toBe('US$ 1,234.56');
    expect(formatMoney(5n, '840', 'en-US')).toBe('US$ 0.05');
  });

  it('groups every thousand up to twelve digits exactly, with no floating point', () => {
    expect(formatMoney(999_999_999_999n, '604')).toBe('S/ 9,999,999,999.99');
    expect(formatMoney(100_000_000_001n, '840')).toBe('US$ 1,000,000,000.01');
    expect(formatMoney(9_007_199_254_740_993n, '840')).toBe('US$ 90,071,992,547,409.93');
  });

  it('puts the sign of a negative amount before the symbol', () => {
    expect(formatMoney(-150n, '604')).toBe('-S/ 1.50');
    expect(formatMoney(-123456n, '840', 'en-US')).toBe('-US$ 1,234.56');
  });
});

describe('formatDecimal', () => {
  it('writes major units with a point, no grouping and no symbol, exactly', () => {
    expect(formatDecimal(15000n, '604')).toBe('150.00');
    expect(formatDecimal(5n, '840')).toBe('0.05');
    expect(formatDecimal(123456n, '840')).toBe('1234.56');
    expect(formatDecimal(999_999_999_999n, '604')).toBe('9999999999.99');
    expect(formatDecimal(-150n, '604')).toBe('-1.50');
  });
});

describe('centsOfTypedAmount (what a person types in soles or dollars)', () => {
  it('reads up to two decimals exactly, never through a float', () => {
    const cases: [string, bigint][] = [
      ['10.05', 1005n],
      ['0.29', 29n],
      ['1.15', 115n],
      ['4.35', 435n],
      ['90', 9000n],
      ['90.5', 9050n],
      ['90,50', 9050n],
      [' 150.00 ', 15000n],
      ['0', 0n],
      ['0.01', 1n],
      ['9999999999.99', 999999999999n],
    ];
    for (const [text, cents] of cases) expect(centsOfTypedAmount(text), text).toBe(cents);
  });

  it('refuses a sign, three decimals and anything that is not a plain amount', () => {
    for (const text of [
      '',
      ' ',
      '-5',
      '-0.50',
      '+5',
      '1.234',
      '10.005',
      '1.',
      '.5',
      '1e3',
      'abc',
      '1 000',
      '1,000.00',
      '12345678901',
    ])
      expect(centsOfTypedAmount(text), text).toBeNull();
  });

  it('shows cents back as they are typed, and reads them back to the same cents', () => {
    expect(typedAmountOfCents(1005n)).toBe('10.05');
    expect(typedAmountOfCents(5n)).toBe('0.05');
    expect(typedAmountOfCents(15000n)).toBe('150.00');
    for (const cents of [1n, 29n, 1005n, 999999999999n]) expect(centsOfTypedAmount(typedAmountOfCents(cents))).toBe(cents);
  });
});
