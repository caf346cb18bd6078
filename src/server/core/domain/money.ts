export const CURRENCIES = {
  '604': { alpha: 'PEN', symbol: 'S/', minorDigits: 2 },
  '840': { alpha: 'USD', symbol: 'US$', minorDigits: 2 },
} as const;

export type CurrencyCode = keyof typeof CURRENCIES;

export type MoneyLocale = 'es-PE' | 'en-US';

const SEPARATORS: Record<MoneyLocale, { group: string; decimal: string }> = {
  'es-PE': { group: ',', decimal: '.' },
  'en-US': { group: ',', decimal: '.' },
};

export function isSupportedCurrency(code: string): code is CurrencyCode {
  return Object.hasOwn(CURRENCIES, code);
}

/** Cents as the interface writes them: 1 to 12 digits, no leading zero. */
export function parseCents(value: string): bigint | null {
  return /^[1-9]\d{0,11}$/.test(value) ? BigInt(value) : null;
}

/**
 * Cents of an amount a person types in the currency's unit (soles, dollars): up to 10 digits, then
 * a dot or comma and at most two decimals ("10.05" is 1005, "90,5" is 9050). Read as text, never
 * as a float; null for anything else (empty, a sign, three decimals, letters, "1e3"). Zero is 0n:
 * callers that need a positive amount check it.
 */
export function centsOfTypedAmount(text: string): bigint | null {
  const match = /^(\d{1,10})(?:[.,](\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  return BigInt(match[1]!) * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
}

/** Cents as a person types them back: "150.00", "0.05"; the inverse of centsOfTypedAmount. */
export function typedAmountOfCents(cents: bigint): string {
  const { sign, major, minor } = units(cents, '604');
  return `${sign}${major}.${minor}`;
}

export function formatCents(cents: bigint): string {
  return cents.toString();
}

function groupThousands(digits: string, separator: string): string {
  return digits.replace(/\B(?=(\d{3})+$)/g, separator);
}

function units(cents: bigint, currency: CurrencyCode) {
  const { minorDigits } = CURRENCIES[currency];
  const magnitude = cents < 0n ? -cents : cents;
  const unit = 10n ** BigInt(minorDigits);
  return {
    sign: cents < 0n ? '-' : '',
    major: (magnitude / unit).toString(),
    minor: (magnitude % unit).toString().padStart(minorDigits, '0'),
  };
}

/** `S/ 150.00`, `US$ 1,234.56`; negative amounts as `-S/ 1.50`. Integer arithmetic only. */
export function formatMoney(cents: bigint, currency: CurrencyCode, locale: MoneyLocale = 'es-PE'): string {
  const { group, decimal } = SEPARATORS[locale];
  const { sign, major, minor } = units(cents, currency);
  return `${sign}${CURRENCIES[currency].symbol} ${groupThousands(major, group)}${decimal}${minor}`;
}

/** `1234.56`: major units with a point and no grouping, for files read by spreadsheets and programs. */
export function formatDecimal(cents: bigint, currency: CurrencyCode): string {
  const { sign, major, minor } = units(cents, currency);
  return `${sign}${major}.${minor}`;
}
