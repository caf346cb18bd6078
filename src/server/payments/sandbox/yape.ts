import { NO_CAPTURE, NO_SAVED_CARDS } from '@/server/core/domain/capabilities';
import { instrumentFor, type ResultMessage } from '../connector';
import { yapeWallet } from '../yape-wallet';
import { cardOutcome } from './card-outcome';
import type { SandboxProcessor } from './sandbox-connector';

// The sandbox Yape rails (docs/DESIGN.md 8, docs/ORCHESTRATION.md 1): two, with the same rules.

export const YAPE_DECLINES = {
  invalidOtp: { code: 'Y1', description: 'Código de aprobación inválido' },
  noWallet: { code: '14', description: 'El número no tiene Yape' },
  insufficientBalance: { code: '51', description: 'Saldo insuficiente' },
  amountLimitExceeded: { code: '61', description: 'Excede el límite de monto' },
} as const satisfies Record<string, ResultMessage>;

/** 3 500.00 PEN: a larger Yape payment is declined. */
export const YAPE_MAX_PEN_CENTS = 350_000n;

/** Peru's mobile numbers start with 9: any other has no Yape (a hard decline, 14). */
function yapeDecline(subscriber: string, otp: string, amount: bigint, currency: string): ResultMessage | null {
  if (!subscriber.startsWith('9')) return YAPE_DECLINES.noWallet;
  if (otp === '000000') return YAPE_DECLINES.invalidOtp;
  if (otp === '111111') return YAPE_DECLINES.insufficientBalance;
  if (currency === '604' && amount > YAPE_MAX_PEN_CENTS) return YAPE_DECLINES.amountLimitExceeded;
  return null;
}

function yapeRail(identity: Pick<SandboxProcessor, 'id' | 'name'>): SandboxProcessor {
  return {
    ...identity,
    methods: ['YAPE'],
    currencies: ['604'],
    capabilities: {
      ...NO_CAPTURE,
      instalments: false,
      threeDsResult: false,
      cardWithoutCode: false,
      reversal: true,
      refunds: true,
      partialRefund: true,
      savedCards: NO_SAVED_CARDS,
    },
    async authorize(instrument, context) {
      const { phone, otp } = instrumentFor(instrument, 'YAPE');
      const { card, methodDetails } = yapeWallet(phone);
      return cardOutcome(yapeDecline(phone.subscriber, otp, context.amount, context.currency), card, methodDetails);
    },
  };
}

export const yapeRailA = yapeRail({ id: 'sandbox-yape', name: 'Sandbox Yape wallet' });

export const yapeRailB = yapeRail({ id: 'sandbox-yape-b', name: 'Sandbox Yape wallet B' });
