import { NO_CAPTURE } from '@/server/core/domain/capabilities';
import { randomBytes } from 'node:crypto';
import QRCode from 'qrcode';
import { DEFAULT_EXPIRY_SECONDS } from '@/server/core/domain/expiry';
import { addSeconds, toTimeObject } from '@/server/core/domain/time';
import { instrumentFor } from '../connector';
import { withoutUndefined } from '../method-details';
import type { SandboxProcessor } from './sandbox-connector';
import { STATE_REASONS } from '@/server/core/domain/state-reasons';

/** `QR` followed by 20 upper-case hex characters. */
export function generateQrId(): string {
  return `QR${randomBytes(10).toString('hex').toUpperCase()}`;
}

export const qrProcessor: SandboxProcessor = {
  id: 'sandbox-qr',
  name: 'Sandbox QR',
  methods: ['QR'],
  currencies: ['604'],
  capabilities: {
    ...NO_CAPTURE,
    instalments: false,
    threeDsResult: false,
    reversal: false,
    refunds: false,
    partialRefund: false,
  },
  async authorize(instrument, context) {
    const { callbackUrl } = instrumentFor(instrument, 'QR');
    const qrImage = await QRCode.toDataURL(context.payerPageUrl, {
      errorCorrectionLevel: 'M',
      margin: 1,
      width: 256,
    });
    return {
      outcome: 'pending',
      stateReason: STATE_REASONS.qrWaiting,
      processorResponse: {
        qr_image: qrImage,
        qr_id: generateQrId(),
        date: toTimeObject(context.now, 'millis').utc_time,
        result_message: { code: '0', description: 'QR generado' },
      },
      expiresAt: addSeconds(context.now, context.expirySeconds ?? DEFAULT_EXPIRY_SECONDS.QR),
      continueUrl: null,
      methodDetails: withoutUndefined({ callback_url: callbackUrl }),
    };
  },
};
