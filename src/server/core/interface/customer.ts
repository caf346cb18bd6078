import { z } from 'zod';
import { STORED_CREDENTIAL_REASONS, type Consent } from '@/server/core/domain/stored-credentials';
import { KNOWN_BRAND_PATTERN, detectBrand, isValidPan, isValidSecurityCode } from '@/server/core/domain/card';
import { centsString, currencyCode, merchantCode, metaStatus, pathParameter, shortText, storable, timeObject } from './common';

// Customers and their saved cards (docs/DECISIONS.md "Card on file", after ../shared
// CARD-ON-FILE.md 2 and 7): POST /customers, GET /customers/{merchant_code}/{customer_id},
// DELETE /customers/{merchant_code}/{customer_id}/cards/{card_id}.

/** The merchant's own id for its customer: what it looks them up by. */
export const merchantCustomerId = z.string().regex(/^[A-Za-z0-9_.@:-]{1,64}$/, 'must be 1 to 64 letters, digits, _ . @ : or -');

export const customerRequest = z.strictObject({
  merchant_code: merchantCode,
  merchant_customer_id: merchantCustomerId,
  email: z.email({ error: 'must be an email address' }).max(254),
  first_name: shortText().optional(),
  last_name: shortText().optional(),
  phone: z.strictObject({ country_code: shortText(8).optional(), subscriber: shortText(20).optional() }).optional(),
});
export type CustomerRequest = z.infer<typeof customerRequest>;

export const customerPath = z.strictObject({
  merchant_code: pathParameter(merchantCode),
  customer_id: pathParameter(z.string().min(1).max(64)),
});

export const cardPath = z.strictObject({
  merchant_code: pathParameter(merchantCode),
  customer_id: pathParameter(z.string().min(1).max(64)),
  card_id: pathParameter(z.string().min(1).max(64)),
});

/** The consent a saved card's charges rest on; amounts and counts as strings like every number of the interface. */
export const consent = z.strictObject({
  accepted_at: z.iso
    .datetime({ offset: true })
    .refine((value) => !Number.isNaN(Date.parse(value)), 'must be a date-time with its offset'),
  terms_version: storable(z.string().min(1, 'must not be empty').max(64, 'must be at most 64 characters')),
  max_amount: centsString.optional().meta({ description: 'Cents each merchant-initiated charge may take at most' }),
  installments: z
    .string()
    .regex(/^[1-9][0-9]{0,2}$/, 'must be 1 to 999')
    .optional()
    .meta({ description: 'How many charges an INSTALLMENT consent covers' }),
});

/** checkInstallments as JSON Schema, for the document. */
export const INSTALLMENTS_RULE = {
  if: { properties: { reason: { const: 'INSTALLMENT' } }, required: ['reason'] },
  then: { properties: { consent: { properties: { installments: {} }, required: ['installments'] } } },
};

/** A security code of 4 digits for Amex (a PAN starting 34 or 37), 3 for the others, as JSON Schema. */
export const SECURITY_CODE_RULE = {
  if: { properties: { pan: { pattern: '^3[47]' } }, required: ['pan'] },
  then: { properties: { security_code: { pattern: '^[0-9]{4}$' } } },
  else: { properties: { security_code: { pattern: '^[0-9]{3}$' } } },
};

/**
 * An INSTALLMENT consent says how many charges it covers. The other consents count none: an
 * `installments` sent with them is not kept (consentOf).
 */
export function checkInstallments(
  save: { reason: string; consent: { installments?: string } },
  context: { addIssue: (issue: { code: 'custom'; path: string[]; message: string }) => void },
): void {
  if (save.reason === 'INSTALLMENT' && save.consent.installments === undefined) {
    context.addIssue({ code: 'custom', path: ['consent', 'installments'], message: 'is required with INSTALLMENT' });
  }
}

/** The consent as the domain keeps it: the cap in cents, and the count only for INSTALLMENT. */
export function consentOf(reason: string, sent: z.output<typeof consent>): Consent {
  return {
    acceptedAt: new Date(sent.accepted_at),
    termsVersion: sent.terms_version,
    maxAmount: sent.max_amount === undefined ? null : BigInt(sent.max_amount),
    installments: reason === 'INSTALLMENT' && sent.installments !== undefined ? Number(sent.installments) : null,
  };
}

export const storedCredentialReason = z.enum(STORED_CREDENTIAL_REASONS, {
  error: `must be one of ${STORED_CREDENTIAL_REASONS.join(', ')}`,
});

export const savedCardObject = z
  .strictObject({
    card_id: z.string(),
    customer_id: z.string(),
    brand: z.string(),
    bin: z.string(),
    last4: z.string(),
    expiry_date: z.string(),
    status: z.string().meta({ enum: ['ACTIVE', 'REMOVED'] }),
    reason: z.string().meta({ enum: [...STORED_CREDENTIAL_REASONS] }),
    consent: z.strictObject({
      accepted_at: timeObject,
      terms_version: z.string(),
      max_amount: z.string().nullable(),
      installments: z.string().nullable(),
    }),
    currency: z.string(),
    created_at: timeObject,
    removed_at: timeObject.nullable(),
  })
  .meta({ id: 'SavedCard', description: 'A saved card: never more of its number than the BIN and the last 4.' });
export type SavedCardObject = z.infer<typeof savedCardObject>;

export const customerObject = z
  .strictObject({
    customer_id: z.string(),
    merchant_customer_id: z.string(),
    email: z.string(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    phone: z.strictObject({ country_code: z.string().optional(), subscriber: z.string().optional() }).nullable(),
    created_at: timeObject,
  })
  .meta({ id: 'Customer' });

export const customerResponse = z
  .strictObject({ success: z.boolean(), customer: customerObject, meta: metaStatus })
  .meta({ id: 'CustomerResponse' });

export const customerWithCardsResponse = z
  .strictObject({ success: z.boolean(), customer: customerObject, cards: z.array(savedCardObject), meta: metaStatus })
  .meta({ id: 'CustomerWithCardsResponse', description: 'ACTIVE cards first, newest first within each status.' });

export const cardResponse = z
  .strictObject({ success: z.boolean(), card: savedCardObject, meta: metaStatus })
  .meta({ id: 'SavedCardResponse' });

/**
 * POST /customers/{merchant_code}/{customer_id}/cards: a card saved without a payment, after a
 * zero-amount verification (../shared CARD-ON-FILE.md 3).
 */
export const verifyCardRequest = customerPath
  .extend({
    pan: z.string().refine(isValidPan, 'must be 12 to 19 digits passing the Luhn check').meta({
      pattern: KNOWN_BRAND_PATTERN,
      minLength: 12,
      maxLength: 19,
      format: 'luhn',
      description: '12 to 19 digits passing the Luhn check, of a known brand',
    }),
    expiry_date: z.string().regex(/^(0[1-9]|1[0-2])[0-9]{2}$/, 'must be four digits MMYY'),
    security_code: z.string().regex(/^[0-9]{3,4}$/, 'must be 3 digits (4 for Amex)'),
    card_holder: z.strictObject({ first_name: shortText().optional(), last_name: shortText().optional() }).optional(),
    currency: currencyCode.default('604').meta({ description: 'The currency its charges will be in; 604 (PEN) by default' }),
    reason: storedCredentialReason,
    consent,
  })
  .superRefine((request, context) => {
    const issue = (field: string, message: string) => context.addIssue({ code: 'custom', path: [field], message });
    if (isValidPan(request.pan)) {
      const brand = detectBrand(request.pan);
      if (!brand) issue('pan', 'card brand is not supported');
      else if (/^[0-9]{3,4}$/.test(request.security_code) && !isValidSecurityCode(request.security_code, brand))
        issue('security_code', 'must be 3 digits (4 for Amex)');
    }
    checkInstallments(request, context);
  })
  .meta({ allOf: [SECURITY_CODE_RULE, INSTALLMENTS_RULE] });
export type VerifyCardRequest = z.output<typeof verifyCardRequest>;
