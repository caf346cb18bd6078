import { AUTHORIZES_ONLY } from '@/server/core/domain/capabilities';
import { randomBytes } from 'node:crypto';
import { DEFAULT_EXPIRY_SECONDS } from '@/server/core/domain/expiry';
import { addSeconds, toTimeObject } from '@/server/core/domain/time';
import { instrumentFor, type ConnectorContext } from '../connector';
import { merchantPresentedPayload, qrImageOf } from '../qr/emv-qr';
import { withoutUndefined } from '../method-details';
import type { SandboxProcessor } from './sandbox-connector';
import { STATE_REASONS } from '@/server/core/domain/state-reasons';

/**
 * An EMVCo-valid payload no app can pay: its one merchant account template names the sandbox
 * (`pe.sandbox.qr`, account `SANDBOX-NOT-PAYABLE`), as PERU-ACQUIRERS.md 4 asks.
 */
export function sandboxQrPayload(context: ConnectorContext, qrId: string): string {
  return merchantPresentedPayload({
    accounts: [{ id: 26, identifier: 'pe.sandbox.qr', fields: [['01', 'SANDBOX-NOT-PAYABLE']] }],
    categoryCode: '5999',
    currency: context.currency,
    amount: context.amount,
    merchantName: context.order.merchantName,
    city: 'LIMA',
    reference: qrId,
    billNumber: context.order.merchantOperationNumber,
  });
}

/** `QR` followed by 20 upper-case hex characters. */
export function generateQrId(): string {
  return `QR${randomBytes(10).toString('hex').toUpperCase()}`;
}

export const qrProcessor: SandboxProcessor = {
  id: 'sandbox-qr',
  name: 'Sandbox QR',
  methods: ['QR'],
  currencies: ['604'],
  capabilities: AUTHORIZES_ONLY,
  async authorize(instrument, context) {
    const { callbackUrl } = instrumentFor(instrument, 'QR');
    const qrId = generateQrId();
    const payload = sandboxQrPayload(context, qrId);
    return {
      outcome: 'pending',
      stateReason: STATE_REASONS.qrWaiting,
      processorResponse: {
        qr_image: await qrImageOf(payload),
        qr_id: qrId,
        date: toTimeObject(context.now, 'millis').utc_time,
        qr_payload: payload,
        result_message: { code: '0', description: 'QR generado' },
      },
      expiresAt: addSeconds(context.now, context.expirySeconds ?? DEFAULT_EXPIRY_SECONDS.QR),
      continueUrl: null,
      methodDetails: withoutUndefined({ callback_url: callbackUrl }),
      // No app can pay the sandbox's code: its payer page simulates the payment.
      simulatedPaymentUrl: context.payerPageUrl,
    };
  },
};
