import { cardMethodDetails, type CardDescription } from '@/server/core/domain/card';
import type { InstrumentFor } from './connector';

/** The object without its undefined members. */
export function withoutUndefined(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}

/** The instalments a card payment echoes in `method_details` (docs/interface.md 2.7): none asked is one, of plan NONE. */
export function installmentDetails(installments: InstrumentFor<'CARD'>['installments']): Record<string, string> {
  return { plan: installments?.plan ?? 'NONE', installment_number: installments?.number ?? '1' };
}

/** A card payment's card and `method_details`: the card's members and its instalments. */
export function cardPayment(
  card: CardDescription,
  installments: InstrumentFor<'CARD'>['installments'],
): { card: CardDescription; methodDetails: Record<string, unknown> } {
  return { card, methodDetails: { ...cardMethodDetails(card), installments: installmentDetails(installments) } };
}
