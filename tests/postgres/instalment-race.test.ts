import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrismaClient } from '@/generated/prisma/client';
import { openDatabase, type DatabaseHandle } from '@/server/platform/db/adapter';
import { deployMigrations } from '@/server/platform/db/migrations';
import type { ActingMerchant } from '@/server/modules/access/acting-merchant';
import { AppError } from '@/server/core/domain/errors';
import type { ChargeRequest } from '@/server/core/interface/charge-request';
import { authorizeCharge } from '@/server/modules/charges/authorize-charge';
import { updateThreeDs } from '@/server/modules/routing/merchant-routing';
import { createCustomer } from '@/server/modules/customers/customers';
import { chargeRequest, testMerchant } from '@tests/support/procedure-test-support';

// An INSTALLMENT consent's count against MITs sent at once on two PostgreSQL sessions
// (claim-charge.ts, the card_instalments migration): each claim counts the card's approved MITs
// and those in flight once it holds the card's lock, with a snapshot of its own, so however the
// requests interleave the card is charged exactly as many instalments as its consent covers, and
// every other request is 409 41 with no operation registered.
let handles: DatabaseHandle[];
let clients: [PrismaClient, PrismaClient];
let merchant: ActingMerchant;
let sequence = 0;
const number = () => `inst-${Date.now().toString(36)}-${(sequence += 1)}`;

beforeAll(async () => {
  handles = await Promise.all([1, 2].map(() => openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, pgliteDir: '' })));
  await deployMigrations(handles[0]!.factory);
  clients = handles.map((handle) => new PrismaClient({ adapter: handle.factory })) as [PrismaClient, PrismaClient];
  merchant = await testMerchant(clients[0], `INST${Date.now().toString(36).toUpperCase()}`);
  await updateThreeDs(clients[0], { kind: 'all' }, { merchantCode: merchant.code, setting: { mode: 'NEVER', overAmount: null } });
});

afterAll(async () => {
  await Promise.all(clients?.map((client) => client.$disconnect()) ?? []);
  await Promise.all(handles?.map((handle) => handle.close()) ?? []);
});

/** A card saved by an approved charge with an INSTALLMENT consent of `installments` charges: its id. */
async function instalmentCard(installments: number): Promise<string> {
  const { customer } = await createCustomer(clients[0], merchant, {
    merchant_code: merchant.code,
    merchant_customer_id: number(),
    email: 'cuotas@example.pe',
  });
  const request = chargeRequest(merchant.code, number(), 'CARD', { pan: '4111111111111111' });
  if (request.payment_method.method_name !== 'CARD') throw new Error('a card request');
  request.payment_method.method_details.save_card = {
    customer_id: customer.customer_id,
    reason: 'INSTALLMENT',
    consent: { accepted_at: '2026-12-01T10:00:00Z', terms_version: 'v1', installments: String(installments) },
  };
  const reply = await authorizeCharge(clients[0], merchant, request);
  return (reply.transaction.additional_fields as { saved_card: { card_id: string } }).saved_card.card_id;
}

function instalment(cardId: string, operationNumber: string): ChargeRequest {
  const request = chargeRequest(merchant.code, operationNumber, 'CARD');
  return {
    ...request,
    payment_method: { method_name: 'CARD', method_details: { card_id: cardId, initiator: 'MERCHANT', reason: 'INSTALLMENT' } },
  };
}

describe('instalment MITs of one card on two sessions at once', () => {
  // Without the card's lock, one round in three charged a third instalment: three rounds.
  it.each([1, 2, 3])(
    'round %i: twelve MITs for the last two of three instalments: two approved, ten 409 41 that register nothing',
    async () => {
      const cardId = await instalmentCard(3);
      expect((await authorizeCharge(clients[0], merchant, instalment(cardId, number()))).transaction.state).toBe('AUTORIZADO');
      const numbers = Array.from({ length: 12 }, number);
      const settled = await Promise.allSettled(
        numbers.map((operationNumber, index) =>
          authorizeCharge(clients[index % 2]!, merchant, instalment(cardId, operationNumber)),
        ),
      );
      const approved = settled.filter((each) => each.status === 'fulfilled');
      const refused = settled.flatMap((each) => (each.status === 'rejected' ? [each.reason as unknown] : []));
      expect(approved.map((each) => each.value.transaction.state)).toEqual(['AUTORIZADO', 'AUTORIZADO']);
      expect(refused).toHaveLength(10);
      for (const error of refused) {
        expect(error).toBeInstanceOf(AppError);
        expect([(error as AppError).kind, (error as AppError).errors[0]?.code]).toEqual([
          'STATE_CONFLICT',
          'consent_installments',
        ]);
      }
      expect(
        await clients[0].operation.count({ where: { merchantId: merchant.id, merchantOperationNumber: { in: numbers } } }),
      ).toBe(2);
      expect((await clients[0].savedCard.findUniqueOrThrow({ where: { id: cardId } })).mitCount).toBe(3);
      expect(await clients[0].chargeClaim.count({ where: { instalmentCardId: cardId } })).toBe(0);
    },
  );
});
