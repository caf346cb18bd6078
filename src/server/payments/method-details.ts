import type { CardFields } from './connector';

/** The object without its undefined members. */
export function withoutUndefined(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}

/** The card members of `method_details` (docs/interface.md 2.7). */
export function cardMethodDetails(card: CardFields): Record<string, unknown> {
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
