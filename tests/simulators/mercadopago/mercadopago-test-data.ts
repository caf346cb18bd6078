import { randomBytes, randomInt } from 'node:crypto';

// Mercado Pago's Peru test data and catalogue (research §2, §3.3, §5.3), plus the small value
// helpers every part of the simulator formats its answers with.

export type CardMethodId = 'visa' | 'master' | 'amex' | 'diners' | 'debvisa' | 'debmaster';
export type PaymentMethodId = CardMethodId | 'yape';
export type PaymentTypeId = 'credit_card' | 'debit_card';
export type CardBrand = 'visa' | 'master' | 'amex' | 'diners';

export const PAYMENT_METHOD_IDS: readonly PaymentMethodId[] = [
  'visa',
  'master',
  'amex',
  'diners',
  'debvisa',
  'debmaster',
  'yape',
];

export function paymentTypeOf(method: PaymentMethodId): PaymentTypeId {
  return method === 'debvisa' || method === 'debmaster' || method === 'yape' ? 'debit_card' : 'credit_card';
}

/** Methods without deferred capture: the catalogue says so and `capture: false` answers 2077. */
export function supportsDeferredCapture(method: PaymentMethodId): boolean {
  return paymentTypeOf(method) === 'credit_card';
}

/** The brand a card number's prefix announces (the usual IIN ranges), or null for any other. */
export function brandOf(cardNumber: string): CardBrand | null {
  if (cardNumber.startsWith('4')) return 'visa';
  if (/^3[47]/.test(cardNumber)) return 'amex';
  if (/^3(0[0-5]|[689])/.test(cardNumber)) return 'diners';
  const two = Number(cardNumber.slice(0, 2));
  const four = Number(cardNumber.slice(0, 4));
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 'master';
  return null;
}

/** The lengths a brand's numbers have; any 13 to 19 digits for an unknown brand. */
export function cardLengthsOf(brand: CardBrand | null): readonly number[] {
  if (brand === 'visa') return [13, 16, 19];
  if (brand === 'master') return [16];
  if (brand === 'amex') return [15];
  if (brand === 'diners') return [14, 16];
  return [13, 14, 15, 16, 17, 18, 19];
}

export function securityCodeLengthOf(brand: CardBrand | null): readonly number[] {
  if (brand === 'amex') return [4];
  if (brand === null) return [3, 4];
  return [3];
}

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

// The Peru test cards of the "Test cards" page fix their kind (the debit Mastercard is only
// debmaster); for any other BIN the simulator cannot tell credit from debit, so it takes both.
const TEST_CARD_BINS: Record<string, readonly CardMethodId[]> = {
  '400917': ['visa'],
  '503175': ['master'],
  '371180': ['amex'],
  '517878': ['debmaster'],
};

/** The payment_method_id values a card may be paid with, the inferred one first. */
export function methodsForCard(cardNumber: string): readonly CardMethodId[] {
  const known = TEST_CARD_BINS[cardNumber.slice(0, 6)];
  if (known) return known;
  const brand = brandOf(cardNumber);
  if (brand === 'visa') return ['visa', 'debvisa'];
  if (brand === 'master') return ['master', 'debmaster'];
  if (brand === 'amex') return ['amex'];
  if (brand === 'diners') return ['diners'];
  return [];
}

export type Outcome = { status: PaymentStatus; statusDetail: string };
export type PaymentStatus =
  'pending' | 'approved' | 'authorized' | 'in_process' | 'in_mediation' | 'rejected' | 'cancelled' | 'refunded' | 'charged_back';

// Test cardholder names (research §5.3). The page gives the names' meaning, not the exact
// status_detail: this mapping is the research's inference, CONT and the approvals aside.
const CARDHOLDER_REJECTIONS: Record<string, string> = {
  OTHE: 'cc_rejected_other_reason',
  CALL: 'cc_rejected_call_for_authorize',
  FUND: 'cc_rejected_insufficient_amount',
  SECU: 'cc_rejected_bad_filled_security_code',
  EXPI: 'cc_rejected_bad_filled_date',
  FORM: 'cc_rejected_bad_filled_other',
  CARD: 'cc_rejected_bad_filled_card_number',
  INST: 'cc_rejected_invalid_installments',
  DUPL: 'cc_rejected_duplicated_payment',
  LOCK: 'cc_rejected_card_disabled',
  CTNA: 'cc_rejected_card_type_not_allowed',
  ATTE: 'cc_rejected_max_attempts',
  BLAC: 'cc_rejected_blacklist',
  UNSU: 'cc_unsupported_unsupported',
};

export const TEST_CARDHOLDER_NAMES = ['APRO', 'CONT', ...Object.keys(CARDHOLDER_REJECTIONS)] as const;

/** A card payment's result from its token's cardholder name; approval becomes authorization without capture. */
export function cardOutcome(cardholderName: string, options: { binaryMode: boolean; capture: boolean }): Outcome {
  const name = cardholderName.trim().toUpperCase();
  const rejection = CARDHOLDER_REJECTIONS[name];
  if (rejection) return { status: 'rejected', statusDetail: rejection };
  if (name === 'CONT') {
    // binary_mode "can only be approved or rejected": the pending answer turns into a decline.
    return options.binaryMode
      ? { status: 'rejected', statusDetail: 'cc_rejected_other_reason' }
      : { status: 'in_process', statusDetail: 'pending_contingency' };
  }
  return approval(options.capture);
}

export function approval(capture: boolean): Outcome {
  return capture ? { status: 'approved', statusDetail: 'accredited' } : { status: 'authorized', statusDetail: 'pending_capture' };
}

// Yape test phones (research §3.3); OTP 123456 for all of them on the page.
const YAPE_REJECTIONS: Record<string, string> = {
  '111111112': 'cc_rejected_call_for_authorize',
  '111111113': 'cc_amount_rate_limit_exceeded',
  '111111114': 'cc_unsupported_unsupported',
  '111111115': 'cc_rejected_card_type_not_allowed',
  '111111116': 'cc_rejected_max_attempts',
  '111111117': 'cc_rejected_bad_filled_security_code',
  '111111118': 'cc_rejected_form_error',
};

/**
 * Yape's largest payment, S/2000 (the top of the limits a payer can set in the app, research
 * §3.2): shown in the catalogue's `max_allowed_amount` only. The Yape page's examples pay 5000
 * and its test table gives 111111113 for `cc_amount_rate_limit_exceeded`, so the amount decides
 * nothing here: only the documented test phone does.
 */
export const YAPE_MAX_AMOUNT = 2000;

export function yapeOutcome(phoneNumber: string): Outcome {
  const rejection = YAPE_REJECTIONS[phoneNumber];
  if (rejection) return { status: 'rejected', statusDetail: rejection };
  return { status: 'approved', statusDetail: 'accredited' };
}

type CatalogueEntry = {
  id: PaymentMethodId;
  name: string;
  brand: CardBrand | null;
  lengths: readonly number[];
  bin: string;
  max: number;
};

const CATALOGUE: readonly CatalogueEntry[] = [
  { id: 'visa', name: 'Visa', brand: 'visa', lengths: [16], bin: '^4', max: 50_000 },
  {
    id: 'master',
    name: 'Mastercard',
    brand: 'master',
    lengths: [16],
    bin: '^(5[1-5]|2(22[1-9]|2[3-9]|[3-6]|7[01]|720))',
    max: 50_000,
  },
  { id: 'amex', name: 'American Express', brand: 'amex', lengths: [15], bin: '^(34|37)', max: 50_000 },
  { id: 'diners', name: 'Diners', brand: 'diners', lengths: [14], bin: '^(30[0-5]|36|38)', max: 50_000 },
  { id: 'debvisa', name: 'Visa Débito', brand: 'visa', lengths: [16], bin: '^4', max: 50_000 },
  { id: 'debmaster', name: 'Mastercard Débito', brand: 'master', lengths: [16], bin: '^5', max: 50_000 },
  { id: 'yape', name: 'Yape', brand: null, lengths: [9], bin: '^111111', max: YAPE_MAX_AMOUNT },
];

/** GET /v1/payment_methods: the fields of the reference, values for Peru where the docs give none. */
export function paymentMethodsCatalogue(): unknown[] {
  return CATALOGUE.map((entry) => ({
    id: entry.id,
    name: entry.name,
    payment_type_id: paymentTypeOf(entry.id),
    status: 'active',
    secure_thumbnail: `https://www.mercadopago.com/org-img/MP3/API/logos/${entry.id}.gif`,
    thumbnail: `http://img.mlstatic.com/org-img/MP3/API/logos/${entry.id}.gif`,
    deferred_capture: supportsDeferredCapture(entry.id) ? 'supported' : 'unsupported',
    settings: [
      {
        card_number: { validation: entry.brand === null ? 'none' : 'standard', length: entry.lengths[0] },
        bin: { pattern: entry.bin, installments_pattern: entry.bin, exclusion_pattern: null },
        security_code:
          entry.brand === null
            ? { length: 6, card_location: 'back', mode: 'mandatory' }
            : {
                length: securityCodeLengthOf(entry.brand)[0],
                card_location: entry.brand === 'amex' ? 'front' : 'back',
                mode: 'mandatory',
              },
      },
    ],
    additional_info_needed:
      entry.brand === null ? [] : ['cardholder_name', 'cardholder_identification_type', 'cardholder_identification_number'],
    min_allowed_amount: 1,
    max_allowed_amount: entry.max,
    accreditation_time: 0,
    financial_institutions: [],
    processing_modes: ['aggregator'],
  }));
}

/** Mercado Pago's timestamps: milliseconds and the -04:00 offset of every example in the docs. */
export function mpDate(ms: number): string {
  return new Date(ms - 4 * 3_600_000).toISOString().replace('Z', '-04:00');
}

export function roundMoney(amount: number): number {
  return Math.round(amount * 100) / 100;
}

export function hexId(bytes = 16): string {
  return randomBytes(bytes).toString('hex');
}

/** An authorization code as issuers send them: six digits. */
export function authorizationCode(): string {
  return String(randomInt(1_000_000)).padStart(6, '0');
}

/** A number id shaped like Mercado Pago's (74581527758), ever growing like theirs. */
export function idSequence(start: number): () => number {
  let next = start + randomInt(1_000_000);
  return () => {
    next += 1 + randomInt(50);
    return next;
  };
}
