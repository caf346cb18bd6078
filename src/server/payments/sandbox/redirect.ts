import { DEFAULT_EXPIRY_SECONDS } from '@/server/domain/expiry';
import { addSeconds } from '@/server/domain/time';
import { requestFor, type PaymentConnector } from '../connector';
import { withoutUndefined } from '../method-details';

function redirectConnector(method: 'BANK_TRANSFER' | 'CUOTEALO', stateReason: string): PaymentConnector {
  return {
    method,
    async authorize(request, context) {
      const { redirect_url, callback_url } = requestFor(request, method);
      return {
        outcome: 'pending',
        stateReason,
        processorResponse: null,
        expiresAt: addSeconds(context.now, context.expirySeconds ?? DEFAULT_EXPIRY_SECONDS[method]),
        continueUrl: context.payerPageUrl,
        methodDetails: withoutUndefined({ redirect_url, callback_url }),
      };
    },
  };
}

export const bankTransferConnector = redirectConnector('BANK_TRANSFER', 'Esperando que el pagador complete la transferencia');

export const cuotealoConnector = redirectConnector('CUOTEALO', 'Esperando que el pagador complete el pago en cuotas');
