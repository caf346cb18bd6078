import { NO_CAPTURE, NO_SAVED_CARDS } from '@/server/core/domain/capabilities';
import { DEFAULT_EXPIRY_SECONDS } from '@/server/core/domain/expiry';
import { addSeconds } from '@/server/core/domain/time';
import { instrumentFor } from '../connector';
import { withoutUndefined } from '../method-details';
import type { SandboxProcessor } from './sandbox-connector';

function redirectProcessor(
  method: 'BANK_TRANSFER' | 'CUOTEALO',
  identity: Pick<SandboxProcessor, 'id' | 'name'>,
  stateReason: string,
  refunds: boolean,
): SandboxProcessor {
  return {
    ...identity,
    methods: [method],
    currencies: ['604', '840'],
    capabilities: {
      ...NO_CAPTURE,
      instalments: false,
      threeDsResult: false,
      cardWithoutCode: false,
      reversal: false,
      refunds,
      partialRefund: refunds,
      savedCards: NO_SAVED_CARDS,
    },
    async authorize(instrument, context) {
      const { returnUrl, callbackUrl } = instrumentFor(instrument, method);
      return {
        outcome: 'pending',
        stateReason,
        processorResponse: null,
        expiresAt: addSeconds(context.now, context.expirySeconds ?? DEFAULT_EXPIRY_SECONDS[method]),
        continueUrl: context.payerPageUrl,
        methodDetails: withoutUndefined({ redirect_url: returnUrl, callback_url: callbackUrl }),
      };
    },
  };
}

export const bankTransferProcessor = redirectProcessor(
  'BANK_TRANSFER',
  { id: 'sandbox-bank-transfer', name: 'Sandbox bank transfer' },
  'Esperando que el pagador complete la transferencia',
  false,
);

// Cuotéalo settles through its lender, which can return the money; a transfer cannot be recalled.
export const cuotealoProcessor = redirectProcessor(
  'CUOTEALO',
  { id: 'sandbox-cuotealo', name: 'Sandbox Cuotéalo' },
  'Esperando que el pagador complete el pago en cuotas',
  true,
);
