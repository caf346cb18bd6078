import type { Prisma } from '@/generated/prisma/client';
import type { Db, Tx } from '@/server/platform/db/client';
import type { ActingMerchant } from '@/server/modules/access/acting-merchant';
import { AppError } from '@/server/core/domain/errors';
import { successMeta } from '@/server/core/domain/envelope';
import { isUuid } from '@/server/core/domain/uuid';
import type { CustomerRequest } from '@/server/core/interface/customer';
import { savedCardSelect, toSavedCardObject } from './card-view';
import { toTimeObject } from '@/server/core/domain/time';
import { cardEventOf, type CardChange } from '@/server/modules/events/event-of';
import { fanOutEvents } from '@/server/modules/events/callbacks/endpoint-fan-out';

// Customers (docs/DECISIONS.md "Card on file"): one per merchant and merchant_customer_id. Another
// merchant's customer or card, named under the caller's own merchant code, is 404 `30` exactly as
// an unknown one: the lookups are always by (merchant, id), so nothing says it exists elsewhere.

export const customerSelect = {
  id: true,
  merchantCustomerId: true,
  email: true,
  firstName: true,
  lastName: true,
  phone: true,
  createdAt: true,
} satisfies Prisma.CustomerSelect;

type CustomerRow = Prisma.CustomerGetPayload<{ select: typeof customerSelect }>;

function toCustomerObject(row: CustomerRow) {
  return {
    customer_id: row.id,
    merchant_customer_id: row.merchantCustomerId,
    email: row.email,
    first_name: row.firstName,
    last_name: row.lastName,
    phone: (row.phone as { country_code?: string; subscriber?: string } | null) ?? null,
    created_at: toTimeObject(row.createdAt, 'millis'),
  };
}

export function customerNotFound(): AppError {
  return new AppError('NOT_FOUND', 'no such customer for this merchant');
}

export function cardNotFound(): AppError {
  return new AppError('NOT_FOUND', 'no such card for this customer');
}

/**
 * POST /customers: the customer of that merchant_customer_id, made or found. Found, the contact
 * fields the request sends replace the stored ones and the others stay. One statement, so two
 * requests at once for one id make one customer.
 */
export async function createCustomer(db: Db, merchant: ActingMerchant, request: CustomerRequest) {
  const sent = {
    email: request.email,
    ...(request.first_name !== undefined ? { firstName: request.first_name } : {}),
    ...(request.last_name !== undefined ? { lastName: request.last_name } : {}),
    ...(request.phone !== undefined ? { phone: request.phone } : {}),
  };
  const row = await db.customer.upsert({
    where: { merchantId_merchantCustomerId: { merchantId: merchant.id, merchantCustomerId: request.merchant_customer_id } },
    create: { merchantId: merchant.id, merchantCustomerId: request.merchant_customer_id, ...sent },
    update: sent,
    select: customerSelect,
  });
  return { success: true, customer: toCustomerObject(row), meta: successMeta() };
}

/** The merchant's customer of that id, or 404 `30`. */
export async function customerOf(db: Db | Tx, merchantId: string, customerId: string): Promise<CustomerRow> {
  if (!isUuid(customerId)) throw customerNotFound();
  const row = await db.customer.findFirst({ where: { id: customerId, merchantId }, select: customerSelect });
  if (!row) throw customerNotFound();
  return row;
}

/** GET /customers/{merchant_code}/{customer_id}: the customer and its cards, ACTIVE first, newest first within each. */
export async function getCustomer(db: Db, merchant: ActingMerchant, customerId: string) {
  const customer = await customerOf(db, merchant.id, customerId);
  const cards = await db.savedCard.findMany({
    where: { customerId: customer.id, merchantId: merchant.id },
    orderBy: [{ status: 'asc' }, { createdAt: 'desc' }],
    select: savedCardSelect,
  });
  return { success: true, customer: toCustomerObject(customer), cards: cards.map(toSavedCardObject), meta: successMeta() };
}

/**
 * DELETE …/cards/{card_id}: the card REMOVED, its vault record deleted (its data key with it:
 * crypto-shredding) and its fingerprint gone; brand, BIN, last 4 and dates stay. Its processors'
 * tokens are retired in this transaction and deleted at the processors, where their APIs allow
 * it, by the worker: never a processor's call inside a transaction. Twice answers the same.
 */
export async function removeCard(db: Db, merchant: ActingMerchant, customerId: string, cardId: string) {
  const customer = await customerOf(db, merchant.id, customerId);
  if (!isUuid(cardId)) throw cardNotFound();
  return db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ id: string; status: string; vault_id: string | null }[]>`
      SELECT id, status::text, vault_id FROM saved_cards
      WHERE id = ${cardId}::uuid AND customer_id = ${customer.id}::uuid AND merchant_id = ${merchant.id}::uuid
      FOR UPDATE`;
    if (!locked) throw cardNotFound();
    if (locked.status === 'ACTIVE') {
      const card = await tx.savedCard.update({
        where: { id: locked.id },
        data: { status: 'REMOVED', removedAt: new Date(), fingerprint: null, vaultId: null },
        select: savedCardSelect,
      });
      if (locked.vault_id) await tx.vaultRecord.delete({ where: { id: locked.vault_id } });
      await tx.processorCardToken.deleteMany({ where: { cardId: locked.id } });
      await announceCard(tx, {
        merchantId: merchant.id,
        merchantCode: merchant.code,
        type: 'card.removed',
        card: toSavedCardObject(card),
      });
      return { success: true, card: toSavedCardObject(card), meta: successMeta() };
    }
    const card = await tx.savedCard.findUniqueOrThrow({ where: { id: locked.id }, select: savedCardSelect });
    return { success: true, card: toSavedCardObject(card), meta: successMeta() };
  });
}

/** Writes a saved card's event in the change's transaction, and its webhook endpoints' deliveries. */
export async function announceCard(tx: Tx, change: CardChange): Promise<void> {
  const event = cardEventOf(change);
  await tx.outboxEvent.createMany({ data: [event] });
  await fanOutEvents(tx, [event]);
}
