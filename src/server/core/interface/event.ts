import { z } from 'zod';
import { EVENT_TYPES } from '@/server/core/domain/event-types';
import { merchantCode, merchantOperationNumber, metaStatus, pageLimit } from './common';

// GET {base_url}/events (docs/DECISIONS.md, "The events API"): a merchant's events, oldest first,
// so that an integrator back from an outage catches up on what its callbacks missed.

const dateTime = z.iso
  .datetime({ offset: true })
  .refine((value) => !Number.isNaN(Date.parse(value)), 'must be a date-time with its offset, e.g. 2026-11-25T10:00:00Z');

export const eventFilters = z.strictObject({
  merchant_code: merchantCode.optional(),
  type: z.enum(EVENT_TYPES).optional(),
  merchant_operation_number: merchantOperationNumber.optional(),
  delivered: z
    .enum(['true', 'false'])
    .meta({ description: 'Delivered to a callback URL, or not (pending, failed or with no URL)' })
    .optional(),
  created_after: dateTime.meta({ description: 'Events created strictly after this instant' }).optional(),
  limit: pageLimit('Events').optional(),
  cursor: z.string().max(200).meta({ description: 'The `next_cursor` of the page before' }).optional(),
});

export type EventFilters = z.infer<typeof eventFilters>;

/** What GET /events checks beyond its parameters' schemas (see chargeRequestRules). */
export const eventFilterRules = [{ field: 'cursor', rule: 'a `next_cursor` this service issued' }];

export const eventObject = z.strictObject({
  event_id: z.string(),
  event_type: z.string().meta({ enum: EVENT_TYPES }),
  merchant_operation_number: z.string().nullable().meta({ description: "null for a saved card's events" }),
  created_at: z.string().meta({ format: 'date-time' }),
  delivery: z.strictObject({
    status: z.string().meta({
      enum: ['PENDING', 'DELIVERED', 'FAILED', 'SKIPPED'],
      description: "SKIPPED: the operation named no callback URL (a saved card's events never go to one)",
    }),
    attempts: z.int(),
    delivered_at: z.string().nullable().meta({ format: 'date-time' }),
  }),
  payload: z.record(z.string(), z.unknown()).meta({ description: 'The callback body, as signed and sent' }),
});

export const eventListResponse = z
  .strictObject({
    success: z.boolean(),
    merchant_code: z.string(),
    events: z.array(eventObject),
    next_cursor: z.string().nullable(),
    meta: metaStatus,
  })
  .meta({ id: 'EventListResponse' });

export type EventListResponse = z.infer<typeof eventListResponse>;
