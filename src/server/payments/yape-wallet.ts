import { createHash } from 'node:crypto';
import { cardMethodDetails, describeCard, luhnCheckDigit, type CardDescription } from '@/server/core/domain/card';

// A Yape payment's card fields describe the wallet's virtual debit card (docs/DESIGN.md 8: issuer
// YAPE, country PE), derived from the phone number, never random: the same on every rail that
// carries the payment, so a YAPE answer looks the same whichever processor approved it.

const YAPE_BIN = '421355';

import type { YapePhone } from './connector';

/** The wallet's virtual debit card PAN: BIN, nine digits of a SHA-256 of the phone, Luhn digit. */
export function yapeCardPan(phone: YapePhone): string {
  const countryDigits = phone.countryCode.replace(/\D/g, '');
  const digest = createHash('sha256').update(`${countryDigits}${phone.subscriber}`).digest('hex');
  const account = (BigInt(`0x${digest}`) % 1_000_000_000n).toString().padStart(9, '0');
  const payload = `${YAPE_BIN}${account}`;
  return `${payload}${luhnCheckDigit(payload)}`;
}

/** The wallet card and the YAPE `method_details` of a response (docs/interface.md 2.7). */
export function yapeWallet(phone: YapePhone): { card: CardDescription; methodDetails: Record<string, unknown> } {
  const card = describeCard(yapeCardPan(phone));
  return {
    card,
    methodDetails: { phone: { country_code: phone.countryCode, subscriber: phone.subscriber }, ...cardMethodDetails(card) },
  };
}
