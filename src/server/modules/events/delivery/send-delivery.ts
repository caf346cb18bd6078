import type { Db } from '@/server/platform/db/client';
import { env } from '@/env';
import { callbackSigningKey } from '@/server/modules/events/callbacks/signing-keys';
import { deliverCallback, retryDelayMs, type DeliveryResult } from '@/server/modules/events/callbacks/deliver';
import { callbackHeaders, endpointHeaders } from '@/server/modules/events/callbacks/signing';
import { signingSecrets } from '@/server/modules/events/webhooks/endpoint-secrets';
import { boundedResolver, type ResolveHost } from '@/server/modules/events/callbacks/resolve-host';
import type { Claimed } from './claim-deliveries';
import { destinationOutcome } from './destination-holds';

let resolver: { timeoutMs: number; resolve: ResolveHost } | undefined;

/** One resolver per process (c-ares channels are not free), with the configured bound. */
function resolveHost(): ResolveHost {
  const timeoutMs = env().CALLBACK_DNS_TIMEOUT_MS;
  if (resolver?.timeoutMs !== timeoutMs) resolver = { timeoutMs, resolve: boundedResolver(timeoutMs) };
  return resolver.resolve;
}

/** Where the delivery stands after an attempt: delivered, to try again (and when), or given up. */
function nextState(result: DeliveryResult, number: number) {
  const delay = result.ok || result.permanent ? null : retryDelayMs(env().CALLBACK_RETRY_SECONDS, number);
  const status = result.ok ? ('DELIVERED' as const) : delay === null ? ('FAILED' as const) : ('PENDING' as const);
  return {
    attempts: number,
    status,
    leaseUntil: null,
    lastError: result.error,
    ...(result.ok ? { deliveredAt: new Date() } : {}),
    ...(delay !== null ? { nextAttemptAt: new Date(Date.now() + delay) } : {}),
  };
}

/** Sends one claimed delivery and records the attempt; `manual` attempts come from a resend. */
export async function sendDelivery(prisma: Db, claimed: Claimed, manual = false): Promise<void> {
  const config = env();
  const body = JSON.stringify(claimed.payload);
  const message = { eventId: claimed.id, eventType: claimed.type, body };
  const secrets = claimed.endpoint_id === null ? [] : await signingSecrets(prisma, claimed.endpoint_id);
  const key = secrets.length > 0 ? null : await callbackSigningKey(prisma);
  const startedAt = new Date();
  const result = await deliverCallback(claimed.url, body, {
    headersFor: (timestamp) => (key ? callbackHeaders(message, key, timestamp) : endpointHeaders(message, secrets, timestamp)),
    timeoutMs: config.CALLBACK_TIMEOUT_MS,
    guardAddresses: !config.CALLBACKS_ALLOW_PRIVATE_NETWORKS,
    resolveHost: resolveHost(),
  });
  const number = claimed.attempts + 1;
  const state = nextState(result, number);
  // Stored with the attempt, so every instance's /api/metrics counts it (observability/callback-metrics.ts).
  const outcome = result.ok ? 'delivered' : state.status === 'FAILED' ? 'failed' : 'retry';
  const attempt = prisma.callbackAttempt.create({
    data: {
      eventId: claimed.id,
      endpointDeliveryId: claimed.delivery_id,
      number,
      startedAt,
      latencyMs: result.latencyMs,
      statusCode: result.statusCode,
      error: result.error,
      responseSnippet: result.responseSnippet,
      manual,
      outcome,
    },
  });
  const hold = claimed.destination ? [destinationOutcome(prisma, claimed.destination, result)] : [];
  if (claimed.delivery_id === null || claimed.endpoint_id === null) {
    await prisma.$transaction([...hold, attempt, prisma.outboxEvent.update({ where: { id: claimed.id }, data: state })]);
    return;
  }
  // An endpoint's run of failures starts at its first failed delivery and ends at a success
  // (webhook-endpoints.ts disables one failing for days).
  const endpoint = { id: claimed.endpoint_id };
  await prisma.$transaction([
    ...hold,
    attempt,
    // Only while still pending: a delivery given up meanwhile (its endpoint disabled) stays so.
    prisma.endpointDelivery.updateMany({ where: { id: claimed.delivery_id, status: 'PENDING' }, data: state }),
    result.ok
      ? prisma.webhookEndpoint.updateMany({ where: endpoint, data: { failingSince: null } })
      : prisma.webhookEndpoint.updateMany({ where: { ...endpoint, failingSince: null }, data: { failingSince: startedAt } }),
  ]);
}
