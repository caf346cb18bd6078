import { z } from 'zod';
import { STORED_CREDENTIAL_REASONS } from '@/server/core/domain/stored-credentials';
import { centsString, merchantCode, metaStatus, pathParameter, shortText, timeObject } from './common';

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
  terms_version: shortText(64).pipe(z.string().min(1, 'must not be empty')),
  max_amount: centsString.optional().meta({ description: 'Cents each merchant-initiated charge may take at most' }),
  installments: z
    .string()
    .regex(/^[1-9][0-9]{0,2}$/, 'must be 1 to 999')
    .optional()
    .meta({ description: 'How many charges an INSTALLMENT consent covers' }),
});

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
