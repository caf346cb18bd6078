import { DEFAULT_EXPIRY_SECONDS } from '@/server/core/domain/expiry';
import { CURRENCIES, type CurrencyCode } from '@/server/core/domain/money';
import { addSeconds } from '@/server/core/domain/time';
import { instrumentFor, type PaymentInstrument, type AuthorizeResult, type ConnectorContext } from '../connector';
import { withoutUndefined } from '../method-details';
import { technicalFailure } from '../outcomes';
import type { ProcessorAnswer } from '../processor-http';
import { emailOf } from './culqi-charges';
import { culqiError, errorWords, isObject, type CulqiClient, type CulqiOrder } from './culqi-client';
import { STATE_REASONS } from '@/server/core/domain/state-reasons';

// PagoEfectivo and Cuotéalo at Culqi are payment orders (docs.culqi.com/es/documentacion/pagos-online/ordenes-de-pago/ordenes):
// an order for the amount, confirmed for its payment type, which the payer pays later: by the
// CIP (`payment_code`) at a bank or agent, or on Cuotéalo's page. Culqi tells the service by
// the webhook `order.status.changed` (culqi-notifications.ts). The order's number is our
// transaction id, unique per account, and its metadata carries it too, so a lost answer can be
// found again.

type OrderMethod = 'PAGOEFECTIVO' | 'CUOTEALO';

function orderBody(context: ConnectorContext, expiresAt: Date, confirm: boolean) {
  const { order } = context;
  return {
    amount: Number(context.amount),
    currency_code: CURRENCIES[context.currency as CurrencyCode].alpha,
    description: order.description.padEnd(5, '.'),
    order_number: context.transactionId,
    // Culqi requires the payer's details on every order; a payer the merchant did not describe
    // is named generically (docs/processors/culqi.md).
    client_details: {
      first_name: order.payer.firstName ?? 'Cliente',
      last_name: order.payer.lastName ?? 'Pagos',
      email: emailOf(context),
      phone_number: order.payer.phone ?? '+51900000000',
    },
    expiration_date: Math.floor(expiresAt.getTime() / 1000),
    confirm,
    metadata: { transaction_id: context.transactionId, merchant_operation_number: order.merchantOperationNumber },
  };
}

/** What ends an order's creation other than an order: nothing was made when refused; a lost answer is asked about. */
function failureOf(answer: ProcessorAnswer, methodDetails: Record<string, unknown>): AuthorizeResult {
  if (answer.kind === 'refused') return technicalFailure('connection_refused', null, methodDetails);
  if (answer.kind === 'lost' || answer.status >= 500) return technicalFailure('timeout', null, methodDetails);
  const error = culqiError(answer.body);
  return technicalFailure('processor_error', null, methodDetails, {
    code: error?.code ?? error?.type ?? String(answer.status),
    description: error ? errorWords(error) : `Culqi respondió ${answer.status}`,
  });
}

export async function authorizeOrder(
  client: CulqiClient,
  method: OrderMethod,
  instrument: PaymentInstrument,
  context: ConnectorContext,
): Promise<AuthorizeResult> {
  const { returnUrl, callbackUrl } = instrumentFor(instrument, method);
  const methodDetails =
    method === 'CUOTEALO'
      ? withoutUndefined({ redirect_url: returnUrl, callback_url: callbackUrl })
      : withoutUndefined({ callback_url: callbackUrl });
  const expiresAt = addSeconds(context.now, context.expirySeconds ?? DEFAULT_EXPIRY_SECONDS[method]);
  // A PagoEfectivo order is confirmed as it is made, which gives its CIP; a Cuotéalo order is
  // confirmed for that type only (culqi-python culqi/resources/order.py `confirmtype`).
  const created = await client.post('/orders', orderBody(context, expiresAt, method === 'PAGOEFECTIVO'), {
    key: 'secret',
    signal: context.signal,
  });
  if (created.kind !== 'answered' || created.status !== 201 || !isObject<CulqiOrder>(created.body, 'order')) {
    // A success not understood may be an order made: only its status can tell.
    const understood = created.kind === 'answered' && created.status >= 300;
    return understood || created.kind === 'refused'
      ? failureOf(created, methodDetails)
      : technicalFailure('timeout', null, methodDetails);
  }
  let order = created.body;
  if (method === 'CUOTEALO') {
    const confirmed = await client.post(
      '/orders/confirm',
      { order_id: order.id, order_types: ['cuotealo'] },
      { key: 'public', signal: context.signal },
    );
    if (confirmed.kind !== 'answered' || confirmed.status !== 201 || !isObject<CulqiOrder>(confirmed.body, 'order')) {
      // The order exists unconfirmed (nobody can pay it): the attempt failed before any payment.
      const failure = failureOf(confirmed, methodDetails);
      return failure.outcome === 'technical_failure' && failure.reason === 'timeout'
        ? { ...failure, processorReference: order.id }
        : failure;
    }
    order = confirmed.body;
  }
  if (method === 'PAGOEFECTIVO') {
    return {
      outcome: 'pending',
      stateReason: STATE_REASONS.cipWaiting,
      processorResponse: {
        cip: order.payment_code ?? '',
        cip_url: context.payerPageUrl,
        result_message: { code: '100', description: 'CIP generado' },
      },
      expiresAt,
      continueUrl: null,
      methodDetails,
      processorReference: order.id,
    };
  }
  return {
    outcome: 'pending',
    stateReason: STATE_REASONS.instalmentsWaiting,
    processorResponse: null,
    expiresAt,
    // Culqi's own Cuotéalo page, where the payer chooses the instalments.
    continueUrl: order.cuotealo ?? context.payerPageUrl,
    methodDetails,
    processorReference: order.id,
  };
}
