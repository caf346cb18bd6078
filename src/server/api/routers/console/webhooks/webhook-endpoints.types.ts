import { z } from 'zod';
import { EVENT_TYPES } from '@/server/core/domain/event-types';
import { httpUrl, shortText } from '@/server/core/interface/common';
import { MAX_OVERLAP_HOURS } from '@/server/modules/events/webhooks/endpoint-secrets';
import { ofMerchant } from '../console-fields';

// Inputs of the webhook endpoint procedures (docs/DECISIONS.md, "Webhook endpoints").

/** The event types an endpoint wants: '*' alone for every type, else some of the twelve. */
export const eventTypes = z
  .array(z.enum(['*', ...EVENT_TYPES]))
  .min(1, 'choose at least one event type')
  .max(EVENT_TYPES.length)
  .refine((types) => new Set(types).size === types.length, 'each event type once')
  .refine((types) => !types.includes('*') || types.length === 1, "'*' stands alone: every type");

export const endpointId = z.strictObject({ id: z.uuid() });

/** A new signing secret; the current one keeps signing for `overlapHours` (0: stops at once). */
export const rotateSecretInput = endpointId.extend({ overlapHours: z.number().int().min(0).max(MAX_OVERLAP_HOURS) });

export const webhookEndpointsInput = ofMerchant;

export const createWebhookEndpointInput = ofMerchant.extend({
  url: httpUrl,
  eventTypes,
  description: shortText(256).default(''),
});

export const updateWebhookEndpointInput = endpointId.extend({
  url: httpUrl.optional(),
  eventTypes: eventTypes.optional(),
  description: shortText(256).optional(),
  enabled: z.boolean().optional(),
});
