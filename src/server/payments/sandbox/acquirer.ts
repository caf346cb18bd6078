import { EVERY_CAPABILITY } from '@/server/core/domain/capabilities';
import { describeCard, detectBrand, isExpiryInPast, isValidPan, maskPan, parseExpiry } from '@/server/core/domain/card';
import { instrumentFor, type ResultMessage } from '../connector';
import { cardPayment, installmentDetails } from '../method-details';
import { technicalFailure } from '../outcomes';
import { cardOutcome, DO_NOT_HONOUR } from './card-outcome';
import type { SandboxProcessor } from './sandbox-connector';

// The sandbox card acquirers (docs/ORCHESTRATION.md 1): two of them, so that routing and
// failover have somewhere to go. Every test PAN of docs/DESIGN.md 8 behaves the same on both;
// the failover PANs differ between A and B.

export const CARD_DECLINES = {
  doNotHonour: DO_NOT_HONOUR,
  invalidCard: { code: '14', description: 'Número de tarjeta inválido' },
  insufficientFunds: { code: '51', description: 'Fondos insuficientes' },
  expiredCard: { code: '54', description: 'Tarjeta vencida' },
  invalidSecurityCode: { code: 'N7', description: 'Código de seguridad inválido' },
  authenticationRequired: { code: '65', description: 'El emisor requiere autenticación' },
} as const satisfies Record<string, ResultMessage>;

/** What an acquirer does with a test PAN instead of approving it. */
type TestPanRule =
  | { kind: 'decline'; message: ResultMessage }
  /** `96` before any decision: a technical failure, nothing to find afterwards. */
  | { kind: 'processor_error' }
  /** Declined `65` (sca_required) unless the authorization carries a 3-D Secure result. */
  | { kind: 'authentication_required' }
  /** Approved, but the answer comes after the connector's timeout (`slow` for that payment). */
  | { kind: 'late' };

const decline = (message: ResultMessage): TestPanRule => ({ kind: 'decline', message });

// docs/DESIGN.md 8, on every acquirer. 4000000000005126 approves (its refunds are rejected), and
// the 3-D Secure PANs 3220, 3063 and 3253 approve: their authentication is the directory
// server's business, not the acquirer's.
const SHARED_TEST_PANS: Readonly<Record<string, TestPanRule>> = {
  '4000000000000002': decline(CARD_DECLINES.doNotHonour),
  '4000000000009995': decline(CARD_DECLINES.insufficientFunds),
  '4000000000000069': decline(CARD_DECLINES.expiredCard),
  '4000000000000127': decline(CARD_DECLINES.invalidSecurityCode),
  '4000000000000119': { kind: 'processor_error' },
  '4000000000003261': { kind: 'authentication_required' },
};

// docs/ORCHESTRATION.md 1: A declines (soft), fails or answers late what B approves.
const ACQUIRER_A_TEST_PANS: Readonly<Record<string, TestPanRule>> = {
  ...SHARED_TEST_PANS,
  '4000000000008005': decline(CARD_DECLINES.doNotHonour),
  '4000000000008013': { kind: 'processor_error' },
  '4000000000008021': { kind: 'late' },
};

/** The sandbox rejects refunds of test card 4000000000005126 (known by BIN and last four: the PAN is never stored). */
export function isRefundRejectingCard(bin: string, last4: string): boolean {
  return bin === '400000' && last4 === '5126';
}

function isExpired(expiryDate: string, now: Date): boolean {
  return parseExpiry(expiryDate) === null || isExpiryInPast(expiryDate, now);
}

function cardAcquirer(
  identity: Pick<SandboxProcessor, 'id' | 'name'>,
  testPans: Readonly<Record<string, TestPanRule>>,
): SandboxProcessor {
  const ruleOf = (pan: string): TestPanRule | null => testPans[pan] ?? null;
  return {
    ...identity,
    methods: ['CARD'],
    currencies: ['604', '840'],
    capabilities: EVERY_CAPABILITY,
    async authorize(instrument, context) {
      const { pan, expiry, installments } = instrumentFor(instrument, 'CARD');
      if (!isValidPan(pan)) throw new Error('The CARD connector needs a validated PAN');
      if (detectBrand(pan) === null) {
        const details = {
          masked_pan: maskPan(pan),
          bin: pan.slice(0, 6),
          last_pan: pan.slice(-4),
          installments: installmentDetails(installments),
        };
        return cardOutcome(CARD_DECLINES.invalidCard, null, details);
      }
      const { card, methodDetails } = cardPayment(describeCard(pan), installments);
      // An expired card is declined before any test-PAN rule.
      if (isExpired(expiry, context.now)) return cardOutcome(CARD_DECLINES.expiredCard, card, methodDetails);
      const rule = ruleOf(pan);
      switch (rule?.kind) {
        case 'decline':
          return cardOutcome(rule.message, card, methodDetails);
        case 'processor_error':
          return technicalFailure('processor_error', card, methodDetails);
        case 'authentication_required':
          return cardOutcome(context.authentication ? null : CARD_DECLINES.authenticationRequired, card, methodDetails);
        case 'late':
        case undefined:
          return cardOutcome(null, card, methodDetails);
      }
    },
    answersLate(instrument) {
      return instrument.method === 'CARD' && ruleOf(instrument.pan)?.kind === 'late';
    },
    async refund({ card }) {
      return card !== null && isRefundRejectingCard(card.bin, card.last4)
        ? { outcome: 'rejected', reason: 'El procesador rechazó el reembolso de esta tarjeta' }
        : { outcome: 'resolved' };
    },
  };
}

export const acquirerA = cardAcquirer({ id: 'sandbox-acquirer-a', name: 'Sandbox card acquirer A' }, ACQUIRER_A_TEST_PANS);

export const acquirerB = cardAcquirer({ id: 'sandbox-acquirer-b', name: 'Sandbox card acquirer B' }, SHARED_TEST_PANS);
