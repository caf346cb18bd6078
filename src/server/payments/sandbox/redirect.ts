import { DEFAULT_EXPIRY_SECONDS } from '@/server/domain/expiry';
import { addSeconds } from '@/server/domain/time';
import { notSupported, requestFor, type PaymentConnector } from '../connector';
import { withoutUndefined } from '../method-details';
import { resolveRefund, SANDBOX_TIMEOUT_MS, unknownStatus } from './sandbox-flows';

function redirectConnector(
  method: 'BANK_TRANSFER' | 'CUOTEALO',
  identity: Pick<PaymentConnector, 'id' | 'name'>,
  stateReason: string,
  refunds: boolean,
): PaymentConnector {
  return {
    ...identity,
    methods: [method],
    currencies: ['604', '840'],
    capabilities: { instalments: false, threeDsResult: false, reversal: false, refunds },
    timeoutMs: SANDBOX_TIMEOUT_MS,
    async authorize(request, context) {
      const { redirect_url, callback_url } = requestFor(request, method).method_details;
      return {
        outcome: 'pending',
        stateReason,
        processorResponse: null,
        expiresAt: addSeconds(context.now, context.expirySeconds ?? DEFAULT_EXPIRY_SECONDS[method]),
        continueUrl: context.payerPageUrl,
        methodDetails: withoutUndefined({ redirect_url, callback_url }),
      };
    },
    reverse: async () => notSupported('reverse'),
    refund: refunds ? resolveRefund : async () => notSupported('refund'),
    status: unknownStatus,
  };
}

export const bankTransferConnector = redirectConnector(
  'BANK_TRANSFER',
  { id: 'sandbox-bank-transfer', name: 'Sandbox bank transfer' },
  'Esperando que el pagador complete la transferencia',
  false,
);

// Cuotéalo settles through its lender, which can return the money; a transfer cannot be recalled.
export const cuotealoConnector = redirectConnector(
  'CUOTEALO',
  { id: 'sandbox-cuotealo', name: 'Sandbox Cuotéalo' },
  'Esperando que el pagador complete el pago en cuotas',
  true,
);
