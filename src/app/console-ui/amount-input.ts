// Amounts as people type them in the console (soles or dollars, a dot or comma before at most
// two decimals) and the cents the API takes; the form shows cents back the same way.

/** Cents of "90", "90.5", "90,50"; null for anything else (empty, negative, three decimals, letters). */
export function centsOfInput(text: string): string | null {
  const match = /^(\d{1,10})(?:[.,](\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  const cents = BigInt(match[1]!) * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
  return cents > 0n ? cents.toString() : null;
}

/** Cents as the amount fields show them: "150.00". */
export function inputOfCents(cents: string): string {
  const value = BigInt(cents);
  return `${value / 100n}.${(value % 100n).toString().padStart(2, '0')}`;
}
