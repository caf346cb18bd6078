import { describe, expect, it } from 'vitest';
import {
  KNOWN_BRAND_PATTERN,
  describeCard,
  detectBrand,
  isExpiryInPast,
  isLuhnValid,
  isValidPan,
  isValidSecurityCode,
  luhnCheckDigit,
  maskPan,
  parseExpiry,
} from './card';

describe('isLuhnValid', () => {
  it.each(['4111111111111111', '5555555555554444', '378282246310005', '4000000000000002', '79927398713'])('accepts %s', (pan) => {
    expect(isLuhnValid(pan)).toBe(true);
  });

  it.each([
    '4111111111111112',
    '5555555555554443',
    '79927398710',
    '4051421234561115',
    '4111 1111 1111 1111',
    '41111a1111111111',
    '',
  ])('refuses %j', (pan) => {
    expect(isLuhnValid(pan)).toBe(false);
  });
});

describe('luhnCheckDigit', () => {
  it('computes the digit that completes a Luhn-valid number', () => {
    expect(luhnCheckDigit('7992739871')).toBe('3');
    expect(luhnCheckDigit('411111111111111')).toBe('1');
    expect(luhnCheckDigit('37828224631000')).toBe('5');
    expect(luhnCheckDigit('400000000000000')).toBe('2');
  });
});

describe('isValidPan', () => {
  it('accepts 12 to 19 digits passing Luhn', () => {
    expect(isValidPan('400000000002')).toBe(true);
    expect(isValidPan('4000000000000000006')).toBe(true);
    expect(isValidPan('4111111111111111')).toBe(true);
  });

  it('refuses lengths outside 12 to 19 even when Luhn-valid', () => {
    expect(isValidPan('40000000006')).toBe(false);
    expect(isLuhnValid('40000000006')).toBe(true);
    expect(isValidPan('40000000000000000002')).toBe(false);
    expect(isLuhnValid('40000000000000000002')).toBe(true);
  });

  it('refuses a bad check digit and non-digits', () => {
    expect(isValidPan('4111111111111112')).toBe(false);
    expect(isValidPan('4111-1111-1111-1111')).toBe(false);
  });
});

describe('KNOWN_BRAND_PATTERN', () => {
  it('matches exactly the PANs detectBrand knows, over every six-digit prefix', () => {
    const pattern = new RegExp(KNOWN_BRAND_PATTERN, 'u');
    const disagreements: string[] = [];
    for (let prefix = 0; prefix < 1_000_000; prefix += 1) {
      const pan = `${String(prefix).padStart(6, '0')}1234567890`;
      if (pattern.test(pan) !== (detectBrand(pan) !== null)) disagreements.push(pan);
    }
    expect(disagreements.slice(0, 10)).toEqual([]);
  });
});

describe('detectBrand', () => {
  it.each([
    ['4111111111111111', 'VISA'],
    ['4000000000000000006', 'VISA'],
    ['5105105105105100', 'MASTERCARD'],
    ['5555555555554444', 'MASTERCARD'],
    ['2221000000000009', 'MASTERCARD'],
    ['2223003122003222', 'MASTERCARD'],
    ['2720999999999996', 'MASTERCARD'],
    ['378282246310005', 'AMEX'],
    ['3400000000000000', 'AMEX'],
    ['30569309025904', 'DINERS'],
    ['3000000000000004', 'DINERS'],
    ['36227206271667', 'DINERS'],
    ['38520000023237', 'DINERS'],
    ['3920000000000001', 'DINERS'],
    ['6011111111111117', 'DISCOVER'],
    ['6440000000000005', 'DISCOVER'],
    ['6490000000000004', 'DISCOVER'],
    ['6500000000000002', 'DISCOVER'],
    ['6221260000000000', 'DISCOVER'],
    ['6229250000000003', 'DISCOVER'],
  ])('%s is %s', (pan, brand) => {
    expect(detectBrand(pan)).toBe(brand);
  });

  it.each([
    '6221250000000001',
    '6229260000000002',
    '2220000000000000',
    '2721000000000004',
    '5000000000000009',
    '5600000000000003',
    '3060000000000001',
    '3500000000000000',
    '1234567812345670',
    'abcd',
    '',
  ])('%j has no known brand', (pan) => {
    expect(detectBrand(pan)).toBeNull();
  });
});

describe('maskPan', () => {
  it('keeps the first six and last four digits', () => {
    expect(maskPan('4051421234561115')).toBe('405142******1115');
    expect(maskPan('378282246310005')).toBe('378282*****0005');
    expect(maskPan('4000000000000000006')).toBe('400000*********0006');
    expect(maskPan('400000000002')).toBe('400000**0002');
  });
});

describe('describeCard', () => {
  it.each([
    '4000000000000002',
    '4000000000009995',
    '4000000000000069',
    '4000000000000127',
    '4000000000000119',
    '4000000000005126',
  ])('describes sandbox test PAN %s as a US Visa credit card', (pan) => {
    expect(describeCard(pan)).toEqual({
      bin: '400000',
      last_pan: pan.slice(-4),
      masked_pan: `400000******${pan.slice(-4)}`,
      brand: 'VISA',
      card_type: 'CREDIT',
      card_country: 'US',
      issuer: 'SANDBOX TEST BANK',
    });
  });

  it('describes Peruvian BINs from the table', () => {
    expect(describeCard('4557880000000012')).toEqual({
      bin: '455788',
      last_pan: '0012',
      masked_pan: '455788******0012',
      brand: 'VISA',
      card_type: 'DEBIT',
      card_country: 'PE',
      issuer: 'BANCO DE CREDITO DEL PERU',
    });
    expect(describeCard('5204730000000013')).toMatchObject({
      brand: 'MASTERCARD',
      card_type: 'CREDIT',
      card_country: 'PE',
      issuer: 'INTERBANK',
    });
    expect(describeCard('4919140000000014')).toMatchObject({
      card_type: 'CREDIT',
      card_country: 'PE',
      issuer: 'BBVA PERU',
    });
    expect(describeCard('4051421234561114')).toMatchObject({
      masked_pan: '405142******1114',
      card_type: 'DEBIT',
      card_country: 'PE',
      issuer: 'SCOTIABANK PERU',
    });
  });

  it('falls back to the default issuer for an unknown BIN', () => {
    expect(describeCard('378282246310005')).toEqual({
      bin: '378282',
      last_pan: '0005',
      masked_pan: '378282*****0005',
      brand: 'AMEX',
      card_type: 'CREDIT',
      card_country: 'US',
      issuer: 'SANDBOX BANK',
    });
  });

  it('throws on an invalid PAN or an unknown brand', () => {
    expect(() => describeCard('4111111111111112')).toThrow('invalid PAN');
    expect(() => describeCard('1234567812345670')).toThrow('unknown brand');
  });
});

describe('isValidSecurityCode', () => {
  it('wants exactly three digits except for Amex', () => {
    expect(isValidSecurityCode('123', 'VISA')).toBe(true);
    expect(isValidSecurityCode('000', 'MASTERCARD')).toBe(true);
    expect(isValidSecurityCode('123', 'DINERS')).toBe(true);
    expect(isValidSecurityCode('123', 'DISCOVER')).toBe(true);
    expect(isValidSecurityCode('1234', 'VISA')).toBe(false);
    expect(isValidSecurityCode('12', 'VISA')).toBe(false);
    expect(isValidSecurityCode('12a', 'VISA')).toBe(false);
    expect(isValidSecurityCode(' 123', 'VISA')).toBe(false);
  });

  it('wants exactly four digits for Amex', () => {
    expect(isValidSecurityCode('1234', 'AMEX')).toBe(true);
    expect(isValidSecurityCode('123', 'AMEX')).toBe(false);
    expect(isValidSecurityCode('12345', 'AMEX')).toBe(false);
  });
});

describe('parseExpiry', () => {
  it('reads MMYY', () => {
    expect(parseExpiry('0126')).toEqual({ month: 1, year: 2026 });
    expect(parseExpiry('1299')).toEqual({ month: 12, year: 2099 });
    expect(parseExpiry('0700')).toEqual({ month: 7, year: 2000 });
  });

  it.each(['0026', '1326', '126', '01260', '01/26', 'ab26', ''])('refuses %j', (value) => {
    expect(parseExpiry(value)).toBeNull();
  });
});

describe('isExpiryInPast', () => {
  it('keeps a card valid through the last millisecond of its month (UTC)', () => {
    expect(isExpiryInPast('1126', new Date('2026-11-30T23:59:59.999Z'))).toBe(false);
    expect(isExpiryInPast('1126', new Date('2026-12-01T00:00:00.000Z'))).toBe(true);
    expect(isExpiryInPast('1126', new Date('2026-11-01T00:00:00.000Z'))).toBe(false);
  });

  it('rolls December over to the next year', () => {
    expect(isExpiryInPast('1226', new Date('2026-12-31T23:59:59.999Z'))).toBe(false);
    expect(isExpiryInPast('1226', new Date('2027-01-01T00:00:00.000Z'))).toBe(true);
  });

  it('compares whole years', () => {
    expect(isExpiryInPast('0125', new Date('2026-01-15T00:00:00Z'))).toBe(true);
    expect(isExpiryInPast('0127', new Date('2026-12-15T00:00:00Z'))).toBe(false);
  });

  it('throws on an unparseable expiry', () => {
    expect(() => isExpiryInPast('1326', new Date('2026-01-01T00:00:00Z'))).toThrow('unparseable');
  });
});
