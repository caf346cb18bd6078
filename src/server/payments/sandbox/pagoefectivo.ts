import { randomInt } from 'node:crypto';
import { DEFAULT_EXPIRY_SECONDS } from '@/server/domain/expiry';
import { addSeconds } from '@/server/domain/time';
import { requestFor, type PaymentConnector } from '../connector';
import { withoutUndefined } from '../method-details';

/** A 9-digit CIP that never starts with 0. */
export function generateCip(): string {
  return String(randomInt(100_000_000, 1_000_000_000));
}

export const pagoEfectivoConnector: PaymentConnector = {
  method: 'PAGOEFECTIVO',
  async authorize(request, context) {
    const { callback_url } = requestFor(request, 'PAGOEFECTIVO');
    return {
      outcome: 'pending',
      stateReason: 'CIP generado, esperando el pago en efectivo',
      processorResponse: {
        cip: generateCip(),
        cip_url: context.payerPageUrl,
        result_message: { code: '100', description: 'CIP generado' },
      },
      expiresAt: addSeconds(context.now, context.expirySeconds ?? DEFAULT_EXPIRY_SECONDS.PAGOEFECTIVO),
      continueUrl: null,
      methodDetails: withoutUndefined({ callback_url }),
    };
  },
};
