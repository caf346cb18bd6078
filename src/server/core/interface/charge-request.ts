import { z } from 'zod';
import { KNOWN_BRAND_PATTERN, detectBrand, isValidPan, isValidSecurityCode } from '@/server/core/domain/card';
import { centsString, currencyCode, httpUrl, merchantCode, merchantOperationNumber, nestingDepth, shortText } from './common';
import { INITIATORS, MIT_REASONS } from '@/server/core/domain/stored-credentials';
import { checkInstallments, consent, INSTALLMENTS_RULE, SECURITY_CODE_RULE, storedCredentialReason } from './customer';

// Body of POST /charges (docs/interface.md 2.2-2.4). Top level and method_details are strict; the
// person objects keep only their documented fields.
const phoneOfPerson = z.object({ country_code: shortText(8).optional(), subscriber: shortText(20).optional() });

const person = z
  .object({
    first_name: shortText().optional(),
    last_name: shortText().optional(),
    email: z.email({ error: 'must be an email address' }).max(254).optional(),
    phone: phoneOfPerson.optional(),
    location: z
      .object({
        line_1: shortText(256).optional(),
        line_2: shortText(256).optional(),
        city: shortText().optional(),
        state: shortText().optional(),
        country: shortText().optional(),
      })
      .optional(),
  })
  .meta({ id: 'Person' });

/** Save the card for the customer once the charge is approved (docs/DECISIONS.md "Card on file"). */
const saveCard = z
  .strictObject({
    customer_id: z.string().min(1).max(64),
    reason: storedCredentialReason,
    consent,
  })
  .superRefine((save, context) => checkInstallments(save, context))
  .meta({
    ...INSTALLMENTS_RULE,
    id: 'SaveCard',
    description:
      'Save the card for this customer if the charge is approved: additional_fields.saved_card then names it. The charge is authenticated with 3-D Secure unless the merchant’s setting is NEVER.',
  });

/** A JSON Schema that the named properties are present (with the properties named, as linters ask). */
function has(...names: string[]) {
  return { properties: Object.fromEntries(names.map((name) => [name, {}])), required: names };
}

const cardDetails = z
  .strictObject({
    pan: z.string().refine(isValidPan, 'must be 12 to 19 digits passing the Luhn check').optional().meta({
      pattern: KNOWN_BRAND_PATTERN,
      minLength: 12,
      maxLength: 19,
      // Not a registered format: the Luhn check a pattern cannot hold, named for validators that take custom formats.
      format: 'luhn',
      description:
        '12 to 19 digits passing the Luhn check, of a known brand: Visa, Mastercard, Amex, Diners Club or Discover. Required unless card_id names a saved card.',
    }),
    expiry_date: z
      .string()
      .regex(/^(0[1-9]|1[0-2])[0-9]{2}$/, 'must be four digits MMYY')
      .optional()
      .meta({ description: 'MMYY. Required with pan.' }),
    security_code: z
      .string()
      .regex(/^[0-9]{3,4}$/, 'must be 3 digits (4 for Amex)')
      .optional()
      .meta({
        description:
          '4 digits for Amex (a PAN starting 34 or 37), 3 for every other brand. Required with pan; optional for a one-click charge of a saved card; never with initiator MERCHANT.',
      }),
    card_id: z.string().min(1).max(64).optional().meta({
      description:
        'A saved card of the merchant’s (GET /customers/…): charged instead of pan and expiry_date, which it excludes.',
    }),
    initiator: z.enum(INITIATORS, { error: 'must be CUSTOMER or MERCHANT' }).optional().meta({
      description:
        'With card_id: CUSTOMER (the default) for a one-click charge with the customer present; MERCHANT for a merchant-initiated charge under the card’s consent.',
    }),
    reason: z
      .enum(MIT_REASONS, { error: `must be one of ${MIT_REASONS.join(', ')}` })
      .optional()
      .meta({
        description:
          'Required with initiator MERCHANT: the kind of merchant-initiated charge, which the card’s consent must cover.',
      }),
    card_holder: z
      .object({
        first_name: shortText().optional(),
        last_name: shortText().optional(),
        email: z.email({ error: 'must be an email address' }).max(254).optional(),
        phone: z.object({ prefix: shortText(8).optional(), number: shortText(20).optional() }).optional(),
      })
      .optional(),
    installments: z
      .object({
        plan: shortText(32).optional(),
        number: z
          .string()
          .regex(/^[0-9]{1,2}$/)
          .optional(),
      })
      .optional(),
    capture: z.enum(['automatic', 'manual'], { error: 'must be automatic or manual' }).optional().meta({
      description:
        'manual: authorize now and capture later (POST /charges/{merchant_code}/{merchant_operation_number}/capture); automatic: captured with its authorization. Without it, the merchant’s setting for CARD decides.',
    }),
    // Card flows that leave the merchant's page (issuer authentication) need these, and a
    // transaction query returns them (docs/interface.md 2.7).
    redirect_url: httpUrl.optional(),
    callback_url: httpUrl.optional(),
    save_card: saveCard.optional(),
  })
  .superRefine((details, context) => {
    const issue = (field: string, message: string) => context.addIssue({ code: 'custom', path: [field], message });
    if (details.card_id !== undefined) {
      // A saved card (../shared CARD-ON-FILE.md 4): its number comes from the vault.
      if (details.pan !== undefined) issue('pan', 'must not come with card_id: name a new card or a saved one');
      if (details.expiry_date !== undefined) issue('expiry_date', 'must not come with card_id: the saved card has its own');
      if (details.save_card !== undefined) issue('save_card', 'is for a new card, not a saved one');
      if (details.initiator === 'MERCHANT') {
        if (details.security_code !== undefined) issue('security_code', 'a merchant-initiated charge carries no security code');
        if (details.reason === undefined) issue('reason', 'is required with initiator MERCHANT');
      } else if (details.reason !== undefined) {
        issue('reason', 'is only for initiator MERCHANT');
      }
      return;
    }
    if (details.pan === undefined) issue('pan', 'is required (or card_id, a saved card)');
    if (details.expiry_date === undefined) issue('expiry_date', 'is required with pan');
    if (details.security_code === undefined) issue('security_code', 'is required with pan');
    if (details.initiator !== undefined) issue('initiator', 'is only for a saved card (card_id)');
    if (details.reason !== undefined) issue('reason', 'is only for a saved card (card_id)');
    if (details.pan === undefined || !isValidPan(details.pan)) return;
    const brand = detectBrand(details.pan);
    if (!brand) {
      issue('pan', 'card brand is not supported');
    } else if (details.security_code !== undefined && /^[0-9]{3,4}$/.test(details.security_code)) {
      if (!isValidSecurityCode(details.security_code, brand)) issue('security_code', 'must be 3 digits (4 for Amex)');
    }
  })
  .meta({
    allOf: [
      // A new card (pan, expiry_date, security_code) or a saved one (card_id), never both.
      {
        if: has('card_id'),
        then: { not: { anyOf: [has('pan'), has('expiry_date'), has('save_card')] } },
        else: { ...has('pan', 'expiry_date', 'security_code'), not: { anyOf: [has('initiator'), has('reason')] } },
      },
      // A merchant-initiated charge names its reason and carries no security code; only it has a reason.
      {
        if: { properties: { initiator: { const: 'MERCHANT' } }, required: ['initiator'] },
        then: { ...has('reason'), not: has('security_code') },
        else: { not: has('reason') },
      },
      SECURITY_CODE_RULE,
    ],
  });

const yapeDetails = z.strictObject({
  callback_url: httpUrl.optional(),
  phone: z.strictObject({
    country_code: z.literal('+51', { error: 'must be +51' }),
    // Any 9 digits: Peru's mobile numbers start with 9, but Mercado Pago's documented Yape test
    // phones are 111111111 to 111111118; a number with no Yape is the processor's decline.
    subscriber: z.string().regex(/^[0-9]{9}$/, 'must be 9 digits'),
  }),
  otp: z.string().regex(/^[0-9]{6}$/, 'must be 6 digits'),
});

const redirectDetails = z.strictObject({ redirect_url: httpUrl, callback_url: httpUrl.optional() });
const cashCodeDetails = z.strictObject({ redirect_url: httpUrl.optional(), callback_url: httpUrl.optional() });
const qrDetails = z.strictObject({ callback_url: httpUrl.optional() });

export const paymentMethodRequest = z.discriminatedUnion('method_name', [
  z.strictObject({ method_name: z.literal('CARD'), method_details: cardDetails }),
  z.strictObject({ method_name: z.literal('YAPE'), method_details: yapeDetails }),
  z.strictObject({ method_name: z.literal('BANK_TRANSFER'), method_details: redirectDetails }),
  z.strictObject({ method_name: z.literal('CUOTEALO'), method_details: redirectDetails }),
  z.strictObject({ method_name: z.literal('PAGOEFECTIVO'), method_details: cashCodeDetails }),
  z.strictObject({ method_name: z.literal('QR'), method_details: qrDetails }),
]);

const PEN_ONLY = new Set(['YAPE', 'QR']);
/** Product items are free objects; a hostile one nested thousands deep would exhaust the stack. */
const MAX_PRODUCT_DEPTH = 32;

export const chargeRequest = z
  .strictObject({
    action: z.literal('authorize', { error: 'must be authorize' }),
    channel: z.literal('ecommerce', { error: 'must be ecommerce' }),
    merchant_code: merchantCode,
    merchant_operation_number: merchantOperationNumber,
    payment_method: paymentMethodRequest,
    payment_details: z.object({
      amount: centsString,
      currency: currencyCode,
      billing: person,
      shipping: person,
      customer: person,
      product_details: z
        .array(
          z
            .record(z.string(), z.unknown())
            .refine((item) => nestingDepth(item) <= MAX_PRODUCT_DEPTH, `must nest at most ${MAX_PRODUCT_DEPTH} levels`),
        )
        .max(100),
    }),
  })
  .superRefine((body, context) => {
    if (PEN_ONLY.has(body.payment_method.method_name) && body.payment_details.currency !== '604') {
      context.addIssue({
        code: 'custom',
        path: ['payment_details', 'currency'],
        message: `${body.payment_method.method_name} accepts only 604 (PEN)`,
      });
    }
  })
  .meta({
    id: 'ChargeRequest',
    // PEN_ONLY, as JSON Schema.
    if: {
      properties: { payment_method: { properties: { method_name: { enum: [...PEN_ONLY] } }, required: ['method_name'] } },
      required: ['payment_method'],
    },
    then: { properties: { payment_details: { properties: { currency: { const: '604' } } } } },
  });

/**
 * What the server checks beyond what the document's schema holds, described in the document
 * (`x-validation-rules`): a 400 on one of these fields may come from a body the schema accepts.
 */
export const chargeRequestRules = [
  { field: 'payment_method.method_details.pan', rule: 'passes the Luhn check (`format: luhn`)' },
  {
    field: 'payment_method.method_details.redirect_url',
    rule: 'parses as a WHATWG URL with an http(s) scheme and a host (so no port above 65535)',
  },
  {
    field: 'payment_method.method_details.callback_url',
    rule:
      'parses as a WHATWG URL with an http(s) scheme and a host (so no port above 65535); unless the operator allows ' +
      'private networks, its host is a public name or a public address (not loopback, private, link-local or any other ' +
      'IANA special-purpose range, nor localhost, .local, .internal, .test or a single-label name)',
  },
  { field: 'payment_details.product_details', rule: `each item nests at most ${MAX_PRODUCT_DEPTH} levels of objects and arrays` },
];

export type ChargeRequest = z.infer<typeof chargeRequest>;
