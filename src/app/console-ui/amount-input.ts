import { centsOfTypedAmount, typedAmountOfCents } from '@/server/core/domain/money';

// Amounts as people type them in the console (soles or dollars, a dot or comma before at most
// two decimals) and the cents the API takes; the form shows cents back the same way. The
// conversion is money.ts's, shared with the operations page's filters.

/** Cents of "90", "90.5", "90,50"; null for anything else (empty, zero, negative, three decimals, letters). */
export function centsOfInput(text: string): string | null {
  const cents = centsOfTypedAmount(text);
  return cents !== null && cents > 0n ? cents.toString() : null;
}

/** Cents as the amount fields show them: "150.00". */
export function inputOfCents(cents: string): string {
  return typedAmountOfCents(BigInt(cents));
}
