import { SANDBOX_BIN_TABLE, DEFAULT_BIN_INFO, type BinInfo } from './bin-table';

export type CardBrand = 'VISA' | 'MASTERCARD' | 'AMEX' | 'DINERS' | 'DISCOVER';

export type CardDescription = BinInfo & {
  bin: string;
  last_pan: string;
  masked_pan: string;
  brand: CardBrand;
};

const DIGITS = /^\d+$/;

/** The digit that makes `payload + digit` pass Luhn. */
export function luhnCheckDigit(payload: string): string {
  let sum = 0;
  for (let i = 0; i < payload.length; i += 1) {
    const digit = Number(payload[payload.length - 1 - i]);
    const weighted = i % 2 === 0 ? digit * 2 : digit;
    sum += weighted > 9 ? weighted - 9 : weighted;
  }
  return String((10 - (sum % 10)) % 10);
}

export function isLuhnValid(pan: string): boolean {
  if (!DIGITS.test(pan)) return false;
  return luhnCheckDigit(pan.slice(0, -1)) === pan.slice(-1);
}

export function isValidPan(pan: string): boolean {
  return /^\d{12,19}$/.test(pan) && isLuhnValid(pan);
}

function prefixIn(pan: string, length: number, low: number, high: number): boolean {
  if (pan.length < length) return false;
  const prefix = Number(pan.slice(0, length));
  return prefix >= low && prefix <= high;
}

/**
 * The prefixes detectBrand knows, as one pattern for the OpenAPI document (card.test.ts holds the
 * two together over every six-digit prefix).
 */
export const KNOWN_BRAND_PATTERN =
  '^(4|3[47]|30[0-5]|3[689]|6011|64[4-9]|65|622(12[6-9]|1[3-9][0-9]|[2-8][0-9]{2}|9[01][0-9]|92[0-5])|5[1-5]|222[1-9]|22[3-9][0-9]|2[3-6][0-9]{2}|27[01][0-9]|2720)[0-9]*$';

export function detectBrand(pan: string): CardBrand | null {
  if (!DIGITS.test(pan)) return null;
  if (prefixIn(pan, 2, 34, 34) || prefixIn(pan, 2, 37, 37)) return 'AMEX';
  if (prefixIn(pan, 3, 300, 305) || prefixIn(pan, 2, 36, 36) || prefixIn(pan, 2, 38, 39)) {
    return 'DINERS';
  }
  if (
    prefixIn(pan, 4, 6011, 6011) ||
    prefixIn(pan, 3, 644, 649) ||
    prefixIn(pan, 2, 65, 65) ||
    prefixIn(pan, 6, 622126, 622925)
  ) {
    return 'DISCOVER';
  }
  if (prefixIn(pan, 2, 51, 55) || prefixIn(pan, 4, 2221, 2720)) return 'MASTERCARD';
  if (pan.startsWith('4')) return 'VISA';
  return null;
}

export function maskPan(pan: string): string {
  return `${pan.slice(0, 6)}${'*'.repeat(pan.length - 10)}${pan.slice(-4)}`;
}

/** Describes a valid PAN from the sandbox BIN table; throws when the PAN is invalid or its brand unknown. */
export function describeCard(pan: string): CardDescription {
  if (!isValidPan(pan)) throw new Error('Cannot describe an invalid PAN');
  const brand = detectBrand(pan);
  if (brand === null) throw new Error('Cannot describe a PAN of an unknown brand');
  const bin = pan.slice(0, 6);
  const info = SANDBOX_BIN_TABLE[bin] ?? DEFAULT_BIN_INFO;
  return {
    bin,
    last_pan: pan.slice(-4),
    masked_pan: maskPan(pan),
    brand,
    card_type: info.card_type,
    card_country: info.card_country,
    issuer: info.issuer,
  };
}

export function isValidSecurityCode(code: string, brand: CardBrand): boolean {
  return brand === 'AMEX' ? /^\d{4}$/.test(code) : /^\d{3}$/.test(code);
}

export function parseExpiry(mmyy: string): { month: number; year: number } | null {
  const match = /^(\d{2})(\d{2})$/.exec(mmyy);
  if (match === null) return null;
  const month = Number(match[1]);
  if (month < 1 || month > 12) return null;
  return { month, year: 2000 + Number(match[2]) };
}

/** A card is valid through the last instant of its expiry month (UTC); throws on an unparseable expiry. */
export function isExpiryInPast(mmyy: string, now: Date): boolean {
  const expiry = parseExpiry(mmyy);
  if (expiry === null) throw new Error('Cannot compare an unparseable expiry date');
  // Date.UTC months are 0-based, so `expiry.month` is the first instant of the following month.
  return now.getTime() >= Date.UTC(expiry.year, expiry.month, 1);
}

/** The card members of a transaction's `method_details` (docs/interface.md 2.7). */
export function cardMethodDetails(card: CardDescription): Record<string, unknown> {
  return {
    masked_pan: card.masked_pan,
    brand: card.brand,
    bin: card.bin,
    last_pan: card.last_pan,
    card_type: card.card_type,
    card_country: card.card_country,
    issuer: card.issuer,
  };
}
