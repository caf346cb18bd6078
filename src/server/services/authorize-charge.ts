import { randomBytes, randomUUID } from 'node:crypto';
import type { Prisma } from '@/generated/prisma/client';
import { env } from '@/env';
import type { Db } from '@/server/db/client';
import type { ActingMerchant } from '@/server/auth/acting-merchant';
import { requestHashKey } from '@/server/auth/service-keys';
import { AppError } from '@/server/domain/errors';
import { successMeta } from '@/server/domain/envelope';
import type { TransactionState } from '@/server/domain/states';
import { registryFor } from '@/server/payments';
import type { ChargeRequest } from '@/server/schemas/charge-request';
import type { ChargeResponse } from '@/server/schemas/transaction';
import { recordCharge } from './record-charge';
import { requestHash } from './request-hash';
import { chargeMoves } from './state-moves/charge-moves';
import { toTransactionObject, type TransactionRow } from './transaction-view';

// POST /charges (docs/interface.md 4.2, docs/DESIGN.md 6): one transaction per operation unless the latest
// was declined or expired; an identical retry replays the stored answer. Stored in one
// statement (record-charge.ts).
export async function authorizeCharge(prisma: Db, merchant: ActingMerchant, body: ChargeRequest): Promise<ChargeResponse> {
  const method = body.payment_method.method_name;
  if (!merchant.enabledMethods.includes(method)) {
    throw new AppError('METHOD_RULE', `${method} is not enabled for this merchant`);
  }
  const hash = requestHash(await requestHashKey(prisma), body);

  // The sandbox processors decide from the request alone, so the decision is made before the
  // one statement that stores it (a replay or a refused retry simply discards it).
  const transactionId = randomUUID();
  const payerToken = randomBytes(18).toString('base64url');
  const registeredAt = new Date();
  const pendingAt = new Date();
  // One attempt on the method's first connector until routing and failover land
  // (docs/ORCHESTRATION.md 2, 3); the signal ends its wait at the connector's timeout.
  const connector = registryFor(prisma).forMethod(method)[0];
  if (!connector) throw new Error(`No connector carries ${method} payments`);
  const result = await connector.authorize(body.payment_method, {
    now: pendingAt,
    transactionId,
    amount: BigInt(body.payment_details.amount),
    currency: body.payment_details.currency,
    payerPageUrl: `${env().origin}/pay/${payerToken}`,
    expirySeconds: merchant.expirySeconds[method],
    signal: AbortSignal.timeout(connector.timeoutMs),
  });
  const decidedAt = new Date();
  // No merchant can ask for 3-D Secure yet, and no sandbox processor asks for it.
  if (result.outcome === 'challenge') throw new Error('3-D Secure challenges are not supported yet');
  const lifecycle: { state: TransactionState; at: Date }[] = [
    { state: 'REGISTRADO', at: registeredAt },
    { state: 'PENDIENTE', at: pendingAt },
  ];
  if (result.outcome !== 'pending') {
    lifecycle.push({ state: result.outcome === 'approved' ? 'AUTORIZADO' : 'DENEGADO', at: decidedAt });
  }

  const details = body.payment_method.method_details as { callback_url?: string; redirect_url?: string };
  const row: TransactionRow = {
    id: transactionId,
    method,
    amount: BigInt(body.payment_details.amount),
    currency: body.payment_details.currency,
    state: lifecycle.at(-1)!.state,
    stateReason: result.stateReason,
    expiresAt: result.outcome === 'pending' ? result.expiresAt : null,
    continueUrl: result.outcome === 'pending' ? result.continueUrl : null,
    callbackUrl: details.callback_url ?? null,
    redirectUrl: details.redirect_url ?? null,
    methodDetails: result.methodDetails as Prisma.JsonObject,
    processorResponse: result.processorResponse ?? null,
    additionalFields: null,
    createdAt: registeredAt,
    lifecycle,
  };
  const reply: ChargeResponse = {
    success: 'true',
    action: body.action,
    merchant_code: merchant.code,
    merchant_operation_number: body.merchant_operation_number,
    transaction: toTransactionObject(row, 'millis'),
    meta: successMeta(),
  };

  const card = result.outcome === 'pending' ? null : result.card;
  const moves = chargeMoves(row, {
    merchantId: merchant.id,
    merchantCode: merchant.code,
    merchantOperationNumber: body.merchant_operation_number,
  });
  const outcome = await recordCharge(
    prisma,
    { merchantId: merchant.id, merchantOperationNumber: body.merchant_operation_number, requestHash: hash },
    {
      transaction: {
        id: transactionId,
        merchant_id: merchant.id,
        method,
        amount: row.amount,
        currency: row.currency,
        state: row.state,
        state_reason: row.stateReason,
        expires_at: row.expiresAt,
        continue_url: row.continueUrl,
        payer_token: result.outcome === 'pending' ? payerToken : null,
        card_bin: card?.bin ?? null,
        card_last4: card?.last_pan ?? null,
        masked_pan: card?.masked_pan ?? null,
        card_brand: card?.brand ?? null,
        card_type: card?.card_type ?? null,
        card_country: card?.card_country ?? null,
        card_issuer: card?.issuer ?? null,
        payer_email: body.payment_details.customer.email ?? null,
        payer_name: payerNameOf(body.payment_details.customer),
        callback_url: row.callbackUrl,
        redirect_url: row.redirectUrl,
        method_details: row.methodDetails,
        processor_response: row.processorResponse,
        request_hash: hash,
        authorization_reply: reply,
        created_at: registeredAt,
        updated_at: decidedAt,
      },
      ...moves,
    },
  );
  if (outcome.kind === 'replay') return outcome.reply as ChargeResponse;
  if (outcome.kind === 'conflict') {
    throw new AppError('CONFLICT', 'merchant_operation_number already used by another request', {
      errors: [{ field: 'merchant_operation_number', code: 'already_used', message: 'already used by another request' }],
    });
  }
  return reply;
}

/** The customer's name as sent ("Ana Quispe"), or null when neither part came. */
function payerNameOf(customer: ChargeRequest['payment_details']['customer']): string | null {
  return [customer.first_name, customer.last_name].filter(Boolean).join(' ') || null;
}
