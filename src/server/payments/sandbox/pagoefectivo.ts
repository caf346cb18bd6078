import { AUTHORIZES_ONLY } from '@/server/core/domain/capabilities';
import { randomInt } from 'node:crypto';
import { DEFAULT_EXPIRY_SECONDS } from '@/server/core/domain/expiry';
import { addSeconds } from '@/server/core/domain/time';
import { instrumentFor } from '../connector';
import { withoutUndefined } from '../method-details';
import type { SandboxProcessor } from './sandbox-connector';
import { STATE_REASONS } from '@/server/core/domain/state-reasons';

/** A 9-digit CIP that never starts with 0. */
export function generateCip(): string {
  return String(randomInt(100_000_000, 1_000_000_000));
}

export const pagoEfectivoProcessor: SandboxProcessor = {
  id: 'sandbox-pagoefectivo',
  name: 'Sandbox PagoEfectivo',
  methods: ['PAGOEFECTIVO'],
  currencies: ['604', '840'],
  capabilities: AUTHORIZES_ONLY,
  async authorize(instrument, context) {
    const { callbackUrl } = instrumentFor(instrument, 'PAGOEFECTIVO');
    return {
      outcome: 'pending',
      stateReason: STATE_REASONS.cipWaiting,
      processorResponse: {
        cip: generateCip(),
        cip_url: context.payerPageUrl,
        result_message: { code: '100', description: 'CIP generado' },
      },
      expiresAt: addSeconds(context.now, context.expirySeconds ?? DEFAULT_EXPIRY_SECONDS.PAGOEFECTIVO),
      continueUrl: null,
      methodDetails: withoutUndefined({ callback_url: callbackUrl }),
    };
  },
};
