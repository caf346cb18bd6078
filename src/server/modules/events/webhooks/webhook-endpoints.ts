import { randomUUID } from 'node:crypto';
import { assertCallbackDestination, destinationOf } from '@/server/modules/events/callbacks/destination';
import type { Db } from '@/server/platform/db/client';
import { successMeta } from '@/server/core/domain/envelope';
import { AppError } from '@/server/core/domain/errors';
import { assertInScope, merchantInScope, type MerchantScope } from '@/server/modules/access/merchant-scope';
import { addSecret, MAX_OVERLAP_HOURS, rotateSecret, webhookSecretKeys } from './endpoint-secrets';
import { DELIVERY_FAILURES } from '@/server/core/domain/delivery-failures';

// A merchant's webhook endpoints (docs/DECISIONS.md, "Webhook endpoints"): merchant admins (and
// platform admins for any merchant) register, change, pause, remove and test them; an endpoint
// failing without a success for WEBHOOK_DISABLE_AFTER_DAYS is disabled with its reason. Each
// endpoint has a signing secret (Standard Webhooks), shown once when made or rotated.

/** Endpoints a merchant may have (Stripe allows 16). */
export const MAX_ENDPOINTS = 16;
/**
 * The outbox type of a test delivery. A test is not an event: its body has no `event_id` or
 * `event_type` (it says `action: "test"`), the events API never lists it, and no endpoint can
 * subscribe to it; it rides the outbox only to be delivered, signed and retried as events are.
 */
export const TEST_DELIVERY_TYPE = 'webhook.test';

const view = {
  id: true,
  url: true,
  description: true,
  eventTypes: true,
  enabled: true,
  failingSince: true,
  disabledAt: true,
  disabledReason: true,
  createdAt: true,
} as const;

export type EndpointInput = { url: string; eventTypes: string[]; description: string };

async function endpointInScope(prisma: Db, scope: MerchantScope, id: string) {
  const endpoint = await prisma.webhookEndpoint.findUnique({ where: { id }, select: { ...view, merchantId: true } });
  if (!endpoint) throw new AppError('NOT_FOUND', 'no such webhook endpoint');
  assertInScope(scope, endpoint.merchantId, 'webhook endpoint');
  return endpoint;
}

type Dated = { failingSince: Date | null; disabledAt: Date | null; createdAt: Date };

function describe<T extends Dated>(
  endpoint: T,
): Omit<T, keyof Dated> & { failingSince: string | null; disabledAt: string | null; createdAt: string } {
  return {
    ...endpoint,
    failingSince: endpoint.failingSince?.toISOString() ?? null,
    disabledAt: endpoint.disabledAt?.toISOString() ?? null,
    createdAt: endpoint.createdAt.toISOString(),
  };
}

export async function listEndpoints(prisma: Db, scope: MerchantScope, merchantCode?: string) {
  const merchant = await merchantInScope(prisma, scope, merchantCode);
  const now = new Date();
  const rows = await prisma.webhookEndpoint.findMany({
    where: { merchantId: merchant.id },
    select: {
      ...view,
      secrets: {
        where: { OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
        select: { hint: true, expiresAt: true },
        orderBy: { createdAt: 'desc' },
      },
    },
    orderBy: { createdAt: 'asc' },
  });
  const pending = await prisma.endpointDelivery.groupBy({
    by: ['endpointId'],
    where: { endpointId: { in: rows.map((row) => row.id) }, status: 'PENDING' },
    _count: { _all: true },
  });
  const backlog = new Map(pending.map((row) => [row.endpointId, row._count._all]));
  return rows.map(({ secrets, ...row }) => ({
    ...describe(row),
    pending: backlog.get(row.id) ?? 0,
    secretHint: secrets.find((secret) => secret.expiresAt === null)?.hint ?? null,
    /** Until when a rotated secret still signs beside the new one. */
    previousSecretExpiresAt: secrets.find((secret) => secret.expiresAt !== null)?.expiresAt?.toISOString() ?? null,
  }));
}

export async function createEndpoint(prisma: Db, scope: MerchantScope, merchantCode: string | undefined, input: EndpointInput) {
  assertCallbackDestination(input.url, 'url');
  const merchant = await merchantInScope(prisma, scope, merchantCode);
  const ring = await webhookSecretKeys(prisma);
  const created = await prisma.$transaction(async (tx) => {
    // The merchant's row lock orders concurrent creates, so the count cannot go stale before the insert.
    await tx.$queryRaw`SELECT id FROM merchants WHERE id = ${merchant.id}::uuid FOR UPDATE`;
    if ((await tx.webhookEndpoint.count({ where: { merchantId: merchant.id } })) >= MAX_ENDPOINTS) {
      throw new AppError('STATE_CONFLICT', `a merchant has at most ${MAX_ENDPOINTS} webhook endpoints`);
    }
    const endpoint = await tx.webhookEndpoint.create({
      data: {
        merchantId: merchant.id,
        url: input.url,
        destination: destinationOf(input.url)!,
        eventTypes: input.eventTypes,
        description: input.description,
      },
      select: view,
    });
    return { endpoint, ...(await addSecret(tx, ring, endpoint.id)) };
  });
  // The secret is shown this once; the service keeps it sealed.
  return { ...describe(created.endpoint), secret: created.secret, secretHint: created.hint };
}

/**
 * A new signing secret, shown once: the current one keeps signing beside it for `overlapHours`
 * (0: it stops at once, for a leaked secret), so the endpoint's receivers can switch over.
 */
export async function rotateEndpointSecret(prisma: Db, scope: MerchantScope, id: string, overlapHours: number) {
  if (!Number.isInteger(overlapHours) || overlapHours < 0 || overlapHours > MAX_OVERLAP_HOURS) {
    throw new AppError('VALIDATION', `the overlap is 0 to ${MAX_OVERLAP_HOURS} hours`);
  }
  await endpointInScope(prisma, scope, id);
  const ring = await webhookSecretKeys(prisma);
  const rotated = await prisma.$transaction(async (tx) => {
    // Two rotations at once take turns: each ends what the other made overlap, never two actives.
    await tx.$queryRaw`SELECT id FROM webhook_endpoints WHERE id = ${id}::uuid FOR UPDATE`;
    return rotateSecret(tx, ring, id, overlapHours);
  });
  return {
    id,
    secret: rotated.secret,
    secretHint: rotated.hint,
    previousSecretExpiresAt: rotated.previousExpiresAt?.toISOString() ?? null,
  };
}

/** Changes an endpoint; enabling one clears its disablement and its run of failures. */
export async function updateEndpoint(
  prisma: Db,
  scope: MerchantScope,
  id: string,
  input: Partial<EndpointInput> & { enabled?: boolean },
) {
  assertCallbackDestination(input.url, 'url');
  const endpoint = await endpointInScope(prisma, scope, id);
  const reenabled = input.enabled === true && !endpoint.enabled;
  const disabled = input.enabled === false && endpoint.enabled;
  const updated = await prisma.$transaction(async (tx) => {
    if (disabled) await failPending(tx, id, DELIVERY_FAILURES.endpointDisabled());
    // Deliveries still pending go to the endpoint's new address.
    if (input.url) {
      await tx.endpointDelivery.updateMany({
        where: { endpointId: id, status: 'PENDING' },
        data: { url: input.url, destination: destinationOf(input.url)! },
      });
    }
    return tx.webhookEndpoint.update({
      where: { id },
      data: {
        ...(input.url ? { url: input.url, destination: destinationOf(input.url)! } : {}),
        ...(input.eventTypes ? { eventTypes: input.eventTypes } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
        ...(reenabled ? { disabledAt: null, disabledReason: null, failingSince: null } : {}),
        ...(disabled ? { disabledAt: new Date(), disabledReason: 'disabled by a user' } : {}),
        updatedAt: new Date(),
      },
      select: view,
    });
  });
  return describe(updated);
}

export async function deleteEndpoint(prisma: Db, scope: MerchantScope, id: string) {
  await endpointInScope(prisma, scope, id);
  await prisma.webhookEndpoint.delete({ where: { id } });
  return { id, deleted: true };
}

type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0];

/** Deliveries still pending to an endpoint that stops receiving: given up, with why. */
async function failPending(tx: Tx | Db, endpointId: string, reason: string) {
  await tx.endpointDelivery.updateMany({
    where: { endpointId, status: 'PENDING' },
    data: { status: 'FAILED', leaseUntil: null, lastError: reason },
  });
}

/** "Send a test delivery": one message to this endpoint only, signed and retried as events are. */
export async function sendTestDelivery(prisma: Db, scope: MerchantScope, id: string) {
  const endpoint = await endpointInScope(prisma, scope, id);
  if (!endpoint.enabled) throw new AppError('STATE_CONFLICT', 'the webhook endpoint is disabled');
  const merchant = await prisma.merchant.findUniqueOrThrow({ where: { id: endpoint.merchantId }, select: { code: true } });
  const testId = randomUUID();
  const payload = {
    success: 'true',
    action: 'test',
    merchant_code: merchant.code,
    test_id: testId,
    webhook_endpoint: { id: endpoint.id, url: endpoint.url },
    meta: successMeta(),
  };
  await prisma.$transaction(async (tx) => {
    const event = await tx.outboxEvent.create({
      data: {
        id: testId,
        merchantId: endpoint.merchantId,
        type: TEST_DELIVERY_TYPE,
        aggregateId: testId, // its own: a test never waits behind an earlier one being retried
        payload,
        status: 'SKIPPED',
      },
      select: { seq: true },
    });
    await tx.endpointDelivery.create({
      data: {
        eventId: testId,
        endpointId: endpoint.id,
        aggregateId: testId,
        seq: event.seq,
        url: endpoint.url,
        destination: destinationOf(endpoint.url)!,
      },
    });
  });
  return { testId };
}

/**
 * Disables the endpoints that have failed, without a success, since before `disableAfterDays`
 * ago (the worker, hourly): they stop receiving, their pending deliveries are given up, and the
 * console says why.
 */
export async function disableFailingEndpoints(prisma: Db, disableAfterDays: number, now = new Date()): Promise<number> {
  const since = new Date(now.getTime() - disableAfterDays * 86_400_000);
  const failing = await prisma.webhookEndpoint.findMany({
    where: { enabled: true, failingSince: { lt: since } },
    select: { id: true, failingSince: true },
  });
  let disabled = 0;
  for (const endpoint of failing) {
    const reason = `every delivery failed since ${endpoint.failingSince!.toISOString()} (${disableAfterDays} days)`;
    disabled += await prisma.$transaction(async (tx) => {
      // Only if it is still failing since then: a success meanwhile ended the run.
      const changed = await tx.webhookEndpoint.updateMany({
        where: { id: endpoint.id, enabled: true, failingSince: { lt: since } },
        data: { enabled: false, disabledAt: now, disabledReason: reason, updatedAt: now },
      });
      if (changed.count === 1) await failPending(tx, endpoint.id, DELIVERY_FAILURES.endpointDisabledAfterDays());
      return changed.count;
    });
  }
  return disabled;
}
