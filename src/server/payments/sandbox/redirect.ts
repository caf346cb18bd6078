import { addSeconds } from '@/server/domain/time';
import { requestFor, type PaymentConnector } from '../connector';
import { withoutUndefined } from '../method-details';

function redirectConnector(
  method: 'BANK_TRANSFER' | 'CUOTEALO',
  defaultExpirySeconds: number,
  stateReason: string,
): PaymentConnector {
  return {
    method,
    async authorize(request, context) {
      const { redirect_url, callback_url } = requestFor(request, method);
      return {
        outcome: 'pending',
        stateReason,
        processorResponse: null,
        expiresAt: addSeconds(context.now, context.expirySeconds ?? defaultExpirySeconds),
        continueUrl: context.payerPageUrl,
        methodDetails: withoutUndefined({ redirect_url, callback_url }),
      };
    },
  };
}

/** Default expiry 30 minutes. */
export const bankTransferConnector = redirectConnector(
  'BANK_TRANSFER',
  1800,
  'Esperando que el pagador complete la transferencia',
);

/** Default expiry 60 minutes. */
export const cuotealoConnector = redirectConnector('CUOTEALO', 3600, 'Esperando que el pagador complete el pago en cuotas');
