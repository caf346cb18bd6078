import { z } from 'zod';
import {
  CAPTURE_EVENT_TYPE,
  CARD_EVENT_TYPES,
  REFUND_EVENT_TYPES,
  TRANSACTION_EVENT_TYPES,
} from '@/server/core/domain/event-types';
import { savedCardObject } from './customer';
import { metaStatus } from './common';
import { refundObject } from './refund';
import { transactionObject } from './transaction';

// What a callback URL or a webhook endpoint receives (docs/DESIGN.md 9, docs/DECISIONS.md
// "Webhook endpoints"): an event announcing one move, or an endpoint's test delivery. Published
// in the OpenAPI document's `webhooks`, so generated clients (the SDK's constructEvent) type it.

const announcement = {
  success: z.literal('true'),
  action: z.literal('notify'),
  merchant_code: z.string(),
  merchant_operation_number: z.string(),
  event_id: z.string().meta({ description: 'The same on every retry: deduplicate by it (`webhook-id` on endpoints)' }),
  meta: metaStatus,
};

export const transactionEvent = z
  .strictObject({
    ...announcement,
    event_type: z.enum([...Object.values(TRANSACTION_EVENT_TYPES), CAPTURE_EVENT_TYPE]),
    transaction: transactionObject,
  })
  .meta({ id: 'TransactionEvent', description: "A transaction's move, with the transaction as GET /charges/… answers it" });

export const refundEvent = z
  .strictObject({
    ...announcement,
    event_type: z.enum(Object.values(REFUND_EVENT_TYPES)),
    refund: refundObject,
  })
  .meta({ id: 'RefundEvent', description: "A refund's move, with the refund as GET /refund answers it" });

export const cardEvent = z
  .strictObject({
    success: z.literal('true'),
    action: z.literal('notify'),
    merchant_code: z.string(),
    event_id: announcement.event_id,
    event_type: z.enum(CARD_EVENT_TYPES),
    card: savedCardObject,
    meta: metaStatus,
  })
  .meta({
    id: 'CardEvent',
    description: 'A saved card saved, updated or removed, as GET /customers/… shows it (to webhook endpoints only)',
  });

export const webhookTest = z
  .strictObject({
    success: z.literal('true'),
    action: z.literal('test'),
    merchant_code: z.string(),
    test_id: z.string().meta({ description: 'The `webhook-id` of this delivery' }),
    webhook_endpoint: z.strictObject({ id: z.string(), url: z.string() }),
    meta: metaStatus,
  })
  .meta({ id: 'WebhookTest', description: 'A test delivery sent from the console or the CLI: not an event' });

export const webhookMessage = z
  .union([transactionEvent, refundEvent, cardEvent, webhookTest])
  .meta({ id: 'WebhookMessage', description: 'The body of a delivery: `action` "notify" (an event) or "test"' });

export type WebhookMessage = z.infer<typeof webhookMessage>;
