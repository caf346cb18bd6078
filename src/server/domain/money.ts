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

export function formatCents(cents: bigint): string {
  return cents.toString();
}

function groupThousands(digits: string, separator: string): string {
  return digits.replace(/\B(?=(\d{3})+$)/g, separator);
}

/** `S/ 150.00`, `US$ 1,234.56`; negative amounts as `-S/ 1.50`. Integer arithmetic only. */
export function formatMoney(cents: bigint, currency: CurrencyCode, locale: MoneyLocale = 'es-PE'): string {
  const { symbol, minorDigits } = CURRENCIES[currency];
  const { group, decimal } = SEPARATORS[locale];
  const magnitude = cents < 0n ? -cents : cents;
  const unit = 10n ** BigInt(minorDigits);
  const major = groupThousands((magnitude / unit).toString(), group);
  const minor = (magnitude % unit).toString().padStart(minorDigits, '0');
  return `${cents < 0n ? '-' : ''}${symbol} ${major}${decimal}${minor}`;
}
