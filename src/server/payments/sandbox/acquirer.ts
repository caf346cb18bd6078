import { describeCard, detectBrand, isExpiryInPast, isValidPan, maskPan, parseExpiry } from '@/server/domain/card';
import { requestFor, type PaymentConnector, type ResultMessage } from '../connector';
import { cardMethodDetails } from '../method-details';
import { cardOutcome } from './card-outcome';
import { reverseAuthorization, SANDBOX_TIMEOUT_MS, unknownStatus } from './sandbox-flows';

export const CARD_DECLINES = {
  doNotHonour: { code: '05', description: 'Denegada por el emisor' },
  invalidCard: { code: '14', description: 'Número de tarjeta inválido' },
  insufficientFunds: { code: '51', description: 'Fondos insuficientes' },
  expiredCard: { code: '54', description: 'Tarjeta vencida' },
  invalidSecurityCode: { code: 'N7', description: 'Código de seguridad inválido' },
  processorError: { code: '96', description: 'Error del procesador' },
} as const satisfies Record<string, ResultMessage>;

const TEST_PAN_DECLINES: Readonly<Record<string, ResultMessage>> = {
  '4000000000000002': CARD_DECLINES.doNotHonour,
  '4000000000009995': CARD_DECLINES.insufficientFunds,
  '4000000000000069': CARD_DECLINES.expiredCard,
  '4000000000000127': CARD_DECLINES.invalidSecurityCode,
  '4000000000000119': CARD_DECLINES.processorError,
};

/** The sandbox rejects refunds of test card 4000000000005126 (known by BIN and last four: the PAN is never stored). */
export function isRefundRejectingCard(bin: string, last4: string): boolean {
  return bin === '400000' && last4 === '5126';
}

function isExpired(expiryDate: string, now: Date): boolean {
  return parseExpiry(expiryDate) === null || isExpiryInPast(expiryDate, now);
}

export const cardConnector: PaymentConnector = {
  id: 'sandbox-card',
  name: 'Sandbox card acquirer',
  methods: ['CARD'],
  currencies: ['604', '840'],
  capabilities: { instalments: true, threeDsResult: false, reversal: true, refunds: true },
  timeoutMs: SANDBOX_TIMEOUT_MS,
  async authorize(request, context) {
    const { pan, expiry_date, installments } = requestFor(request, 'CARD').method_details;
    if (!isValidPan(pan)) throw new Error('The CARD connector needs a validated PAN');
    const installmentDetails = {
      plan: installments?.plan ?? 'NONE',
      installment_number: installments?.number ?? '1',
    };
    if (detectBrand(pan) === null) {
      const details = {
        masked_pan: maskPan(pan),
        bin: pan.slice(0, 6),
        last_pan: pan.slice(-4),
        installments: installmentDetails,
      };
      return cardOutcome(CARD_DECLINES.invalidCard, null, details);
    }
    const card = describeCard(pan);
    const methodDetails = { ...cardMethodDetails(card), installments: installmentDetails };
    const decline = isExpired(expiry_date, context.now) ? CARD_DECLINES.expiredCard : (TEST_PAN_DECLINES[pan] ?? null);
    return cardOutcome(decline, card, methodDetails);
  },
  reverse: reverseAuthorization,
  async refund({ card }) {
    return card !== null && isRefundRejectingCard(card.bin, card.last4)
      ? { outcome: 'rejected', reason: 'El procesador rechazó el reembolso de esta tarjeta' }
      : { outcome: 'resolved' };
  },
  status: unknownStatus,
};
