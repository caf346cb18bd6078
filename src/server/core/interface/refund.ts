import { z } from 'zod';
import { REFUND_STATES } from '@/server/core/domain/states';
import {
  centsString,
  centsText,
  currencyText,
  lifecycleEntry,
  merchantCode,
  merchantOperationNumber,
  metaStatus,
  pageLimit,
  shortText,
  uuid,
} from './common';

// Refund request and responses (docs/interface.md 4.5-4.7, 2.10) and the filters of docs/DESIGN.md 11.
export const refundStates = z.enum(REFUND_STATES);

export const refundRequest = z
  .strictObject({
    merchant_code: merchantCode,
    operations: z
      .array(
        z.strictObject({
          type: z
            .enum(['TOTAL', 'PARTIAL'], { error: 'must be TOTAL or PARTIAL' })
            .meta({ description: 'TOTAL: all of what was captured, once; PARTIAL: part of what is still refundable' }),
          merchant_operation_number: merchantOperationNumber,
          transaction_id: uuid.nullable(),
          refund_amount: centsString,
          additional_fields: z.strictObject({
            canal: shortText(64),
            reason: shortText(256),
            description: shortText(1024),
          }),
        }),
      )
      .min(1, 'must hold 1 to 50 items')
      .max(50, 'must hold 1 to 50 items'),
  })
  .meta({ id: 'RefundRequest' });

export type RefundRequest = z.infer<typeof refundRequest>;

export const refundObject = z
  .object({
    refund_id: z.string(),
    state: refundStates,
    refund_reason: z.string(),
    type: z.string(),
    merchant_operation_number: z.string(),
    transaction_id: z.string(),
    refund_amount: centsText,
    transaction_amount: centsText,
    currency: currencyText,
    payment_method: z.object({ name: z.string(), brand: z.string(), masked_pan: z.string() }),
    additional_fields: z.object({ canal: z.string(), reason: z.string(), description: z.string() }),
    lifecycle: z.array(lifecycleEntry(REFUND_STATES)),
  })
  .meta({ id: 'Refund' });

export type RefundObject = z.infer<typeof refundObject>;

export const refundCreateResponse = z
  .object({
    success: z.literal('true'),
    action: z.literal('refund'),
    merchant_code: z.string(),
    operations: z.array(refundObject),
    meta: metaStatus,
  })
  .meta({ id: 'RefundCreateResponse' });

export const refundListResponse = z
  .object({
    success: z.literal('true'),
    merchant_code: z.string(),
    operations_count: z.string(),
    operations: z.array(refundObject),
    next_cursor: z.string().nullable().optional(),
    meta: metaStatus,
  })
  .meta({ id: 'RefundListResponse' });

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD')
  .refine(
    (value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
    'must be a real date',
  )
  .meta({ format: 'date' });

export const refundFilters = z
  .strictObject({
    start_date: isoDate.optional(),
    end_date: isoDate.optional(),
    merchant_code: merchantCode.optional(),
    merchant_operation_number: merchantOperationNumber.optional(),
    transaction_id: uuid.optional(),
    state: refundStates.optional(),
    limit: pageLimit('Refunds').optional(),
    cursor: z.string().max(200).meta({ description: 'The `next_cursor` of the page before' }).optional(),
  })
  .refine((filters) => !filters.start_date || !filters.end_date || filters.start_date <= filters.end_date, {
    message: 'start_date must not be after end_date',
    path: ['start_date'],
  });

export type RefundFilters = z.infer<typeof refundFilters>;

/** What GET /refund checks beyond its parameters' schemas (see chargeRequestRules). */
export const refundFilterRules = [
  { field: 'start_date', rule: 'not after end_date' },
  { field: 'cursor', rule: 'a `next_cursor` this service issued' },
];
