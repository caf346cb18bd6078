import {
  createEndpoint,
  deleteEndpoint,
  listEndpoints,
  rotateEndpointSecret,
  sendTestDelivery,
  updateEndpoint,
} from '@/server/modules/events/webhooks/webhook-endpoints';
import { consoleActProcedure, consoleProcedure } from '../../../trpc';
import {
  createWebhookEndpointInput,
  endpointId,
  rotateSecretInput,
  updateWebhookEndpointInput,
  webhookEndpointsInput,
} from './webhook-endpoints.types';

// A merchant's webhook endpoints: merchant users see their merchant's, merchant and platform
// admins change them (consoleActProcedure), support sees any.

export const webhookEndpoints = consoleProcedure
  .input(webhookEndpointsInput)
  .query(({ ctx, input }) => listEndpoints(ctx.prisma, ctx.scope, input.merchantCode));

export const createWebhookEndpoint = consoleActProcedure
  .input(createWebhookEndpointInput)
  .mutation(({ ctx, input }) => createEndpoint(ctx.prisma, ctx.scope, input.merchantCode, input));

export const updateWebhookEndpoint = consoleActProcedure
  .input(updateWebhookEndpointInput)
  .mutation(({ ctx, input: { id, ...changes } }) => updateEndpoint(ctx.prisma, ctx.scope, id, changes));

export const deleteWebhookEndpoint = consoleActProcedure
  .input(endpointId)
  .mutation(({ ctx, input }) => deleteEndpoint(ctx.prisma, ctx.scope, input.id));

export const rotateWebhookSecret = consoleActProcedure
  .input(rotateSecretInput)
  .mutation(({ ctx, input }) => rotateEndpointSecret(ctx.prisma, ctx.scope, input.id, input.overlapHours));

export const testWebhookEndpoint = consoleActProcedure
  .input(endpointId)
  .mutation(({ ctx, input }) => sendTestDelivery(ctx.prisma, ctx.scope, input.id));
