import type { PrismaClient } from '@/generated/prisma/client';
import type { ActingMerchant } from '@/server/modules/access/acting-merchant';
import { attemptRows, newAttempt, type ChargeBase } from '@/server/modules/charges/attempts/attempt-rows';
import { asJson } from '@/server/modules/charges/attempts/transaction-columns';
import { chargeRequest } from './procedure-test-support';

export type ClaimedAttempt = { transactionId: string; operationId: string; attempt: number; requestHash: string };

/**
 * An attempt in flight as a claim (charge_claims) with its REGISTRADO event, as the claim
 * statement writes one when a charge is written once (docs/DECISIONS.md, "A charge written
 * once"): what an instance that stopped while a processor had the attempt leaves behind.
 */
export async function claimAttempt(
  prisma: PrismaClient,
  owner: ActingMerchant,
  operationNumber: string,
  options: {
    statusCheckAt?: Date;
    captureMode?: 'AUTOMATIC' | 'MANUAL';
    method?: 'CARD' | 'YAPE' | 'QR';
    connectorId?: string;
  } = {},
): Promise<ClaimedAttempt> {
  const base: ChargeBase = {
    merchant: owner,
    body: chargeRequest(owner.code, operationNumber, options.method ?? 'CARD'),
    requestHash: `hash-${operationNumber}`,
    card: null,
    methodDetails: {},
    authentication: null,
    captureMode: options.captureMode ?? 'AUTOMATIC',
    cardSaveId: null,
    storedCredential: null,
  };
  const at = new Date();
  const operation = await prisma.operation.upsert({
    where: { merchantId_merchantOperationNumber: { merchantId: owner.id, merchantOperationNumber: operationNumber } },
    create: { merchantId: owner.id, merchantOperationNumber: operationNumber },
    update: {},
    select: { id: true },
  });
  const latest = await prisma.transaction.findFirst({
    where: { operationId: operation.id },
    orderBy: { attempt: 'desc' },
    select: { attempt: true },
  });
  const number = (latest?.attempt ?? 0) + 1;
  const attempt = newAttempt(
    base,
    { connectorId: options.connectorId ?? 'sandbox-acquirer-a', routing: { rule_version: null, route: null, reason: 'test' } },
    number,
    at,
  );
  const rows = attemptRows(base, attempt, options.statusCheckAt ?? new Date(at.getTime() + 60_000));
  await prisma.$transaction([
    prisma.$executeRawUnsafe(
      `INSERT INTO charge_claims (transaction_id, operation_id, attempt, merchant_id, connector_id, request_hash,
         attempt_row, claimed_at, status_check_at)
       VALUES ($1::uuid, $2::uuid, $3, $4::uuid, $5, $6, $7::jsonb, $8, $9)`,
      attempt.row.id,
      operation.id,
      number,
      owner.id,
      attempt.connectorId,
      base.requestHash,
      asJson(rows.transaction),
      at,
      rows.transaction.status_check_at as Date,
    ),
    prisma.outboxEvent.createMany({ data: rows.events }),
  ]);
  return { transactionId: attempt.row.id, operationId: operation.id, attempt: number, requestHash: base.requestHash };
}
