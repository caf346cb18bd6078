import { describe, expect, it } from 'vitest';
import { centsOfInput, inputOfCents } from './amount-input';

describe('amounts typed in the console', () => {
  it('reads soles with a dot or a comma and up to two decimals', () => {
    expect(centsOfInput('90')).toBe('9000');
    expect(centsOfInput('90.5')).toBe('9050');
    expect(centsOfInput(' 90,05 ')).toBe('9005');
    expect(centsOfInput('0.01')).toBe('1');
  });

  it('refuses what is no positive amount', () => {
    for (const text of ['', '0', '0.00', '-5', '1.234', 'abc', '1e3', '1.', '.5']) expect(centsOfInput(text), text).toBeNull();
  });

  it('shows cents back as the fields take them', () => {
    expect(inputOfCents('15000')).toBe('150.00');
    expect(inputOfCents('9005')).toBe('90.05');
    expect(inputOfCents('1')).toBe('0.01');
  });
});
