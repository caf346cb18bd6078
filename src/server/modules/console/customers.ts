import { savedCardSelect } from '@/server/modules/customers/card-view';
import type { Prisma } from '@/generated/prisma/client';
import type { Db } from '@/server/platform/db/client';
import { AppError } from '@/server/core/domain/errors';
import { isUuid } from '@/server/core/domain/uuid';
import { assertInScope, actingMerchantById, type MerchantScope } from '@/server/modules/access/merchant-scope';
import { customerSelect, removeCard } from '@/server/modules/customers/customers';

// The console's customers (docs/DECISIONS.md "Card on file", ../shared CARD-ON-FILE.md 7): a search
// by the merchant's customer id, e-mail or a card's last 4; a customer's page with its cards, what
// each rests on, and the charges made with them; a card removed by an admin. Merchant users see
// their own merchant's, support staff every merchant's.

const PAGE = 50;

/** Customers whose merchant id or e-mail holds `query`, or with a card ending in it (4 digits), newest first. */
export async function searchCustomers(db: Db, scope: MerchantScope, query: string) {
  const text = query.trim();
  const where: Prisma.CustomerWhereInput = {
    ...(scope.kind === 'one' ? { merchantId: scope.merchantId } : {}),
    ...(text
      ? {
          OR: [
            { merchantCustomerId: { contains: text, mode: 'insensitive' } },
            { email: { contains: text, mode: 'insensitive' } },
            ...(/^[0-9]{4}$/.test(text) ? [{ cards: { some: { last4: text } } }] : []),
          ],
        }
      : {}),
  };
  const rows = await db.customer.findMany({
    where,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: PAGE,
    select: {
      ...customerSelect,
      merchant: { select: { code: true } },
      cards: { where: { status: 'ACTIVE' }, select: { brand: true, last4: true } },
    },
  });
  return {
    customers: rows.map((row) => ({
      customerId: row.id,
      merchantCode: row.merchant.code,
      merchantCustomerId: row.merchantCustomerId,
      email: row.email,
      name: [row.firstName, row.lastName].filter(Boolean).join(' ') || null,
      createdAt: row.createdAt,
      activeCards: row.cards.map((card) => `${card.brand} •••• ${card.last4}`),
    })),
    more: rows.length === PAGE,
  };
}

/** A customer of the scope, its cards (ACTIVE first) and the charges made with them, newest first. */
export async function customerDetail(db: Db, scope: MerchantScope, customerId: string) {
  if (!isUuid(customerId)) throw new AppError('NOT_FOUND', 'no such customer');
  const customer = await db.customer.findUnique({
    where: { id: customerId },
    select: {
      ...customerSelect,
      merchantId: true,
      merchant: { select: { code: true, name: true } },
      cards: {
        orderBy: [{ status: 'asc' }, { createdAt: 'desc' }],
        select: {
          ...savedCardSelect,
          mitCount: true,
          initialNti: true,
          savedByTransactionId: true,
          createdAt: true,
          removedAt: true,
          tokens: { select: { connectorId: true } },
        },
      },
    },
  });
  if (!customer) throw new AppError('NOT_FOUND', 'no such customer');
  assertInScope(scope, customer.merchantId, 'customer');
  const cardIds = customer.cards.map((card) => card.id);
  // Every charge of a saved card names it (`saved_card_id`), the one that saved it too.
  const charges = cardIds.length
    ? await db.transaction.findMany({
        where: { merchantId: customer.merchantId, savedCardId: { in: cardIds } },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: PAGE,
        select: {
          id: true,
          state: true,
          amount: true,
          currency: true,
          createdAt: true,
          cardLast4: true,
          additionalFields: true,
          operation: { select: { merchantOperationNumber: true } },
        },
      })
    : [];
  return {
    customerId: customer.id,
    merchantCode: customer.merchant.code,
    merchantName: customer.merchant.name,
    merchantCustomerId: customer.merchantCustomerId,
    email: customer.email,
    name: [customer.firstName, customer.lastName].filter(Boolean).join(' ') || null,
    createdAt: customer.createdAt,
    cards: customer.cards.map((card) => ({
      cardId: card.id,
      status: card.status,
      reason: card.reason,
      brand: card.brand,
      bin: card.bin,
      last4: card.last4,
      expiryDate: card.expiryDate,
      currency: card.currency,
      consentAcceptedAt: card.consentAcceptedAt,
      termsVersion: card.consentTermsVersion,
      maxAmount: card.consentMaxAmount?.toString() ?? null,
      installments: card.consentInstallments,
      mitCount: card.mitCount,
      ntiKept: card.initialNti !== null,
      savedByTransactionId: card.savedByTransactionId,
      tokensAt: card.tokens.map((token) => token.connectorId),
      createdAt: card.createdAt,
      removedAt: card.removedAt,
    })),
    charges: charges.map((charge) => ({
      transactionId: charge.id,
      merchantOperationNumber: charge.operation.merchantOperationNumber,
      state: charge.state,
      amount: charge.amount.toString(),
      currency: charge.currency,
      createdAt: charge.createdAt,
      last4: charge.cardLast4,
      use: cardUseOf(charge.additionalFields),
    })),
  };
}

export type CardUse = 'saved_card' | 'one_click' | 'merchant_initiated';

/** How a charge used a saved card: the charge that saved it, a one-click charge, or an MIT (with its reason). */
export function cardUseOf(fields: Prisma.JsonValue | null): { kind: CardUse; reason: string | null } | null {
  const stored = (fields as { stored_credential?: { initiator?: string; usage?: string; reason?: string } } | null)
    ?.stored_credential;
  if (stored?.usage === 'FIRST') return { kind: 'saved_card', reason: null };
  if (!stored) return null;
  return stored.initiator === 'MERCHANT'
    ? { kind: 'merchant_initiated', reason: stored.reason ?? null }
    : { kind: 'one_click', reason: null };
}

/** A merchant admin's (or a platform admin's) removal of a customer's card, as DELETE …/cards/{card_id} does it. */
export async function removeSavedCard(db: Db, scope: MerchantScope, customerId: string, cardId: string) {
  if (!isUuid(customerId)) throw new AppError('NOT_FOUND', 'no such customer');
  const customer = await db.customer.findUnique({ where: { id: customerId }, select: { merchantId: true } });
  if (!customer) throw new AppError('NOT_FOUND', 'no such customer');
  assertInScope(scope, customer.merchantId, 'customer');
  const { card } = await removeCard(db, await actingMerchantById(db, customer.merchantId), customerId, cardId);
  return { cardId: card.card_id, status: card.status };
}
