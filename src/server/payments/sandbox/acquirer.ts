import { createHash } from 'node:crypto';
import { EVERY_CAPABILITY } from '@/server/core/domain/capabilities';
import { describeCard, detectBrand, isExpiryInPast, isValidPan, maskPan, parseExpiry } from '@/server/core/domain/card';
import { instrumentFor, type AuthorizeResult, type ResultMessage } from '../connector';
import { cardPayment, installmentDetails } from '../method-details';
import { technicalFailure } from '../outcomes';
import { cardOutcome, DO_NOT_HONOUR, randomDigits } from './card-outcome';
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
  notPermitted: { code: '57', description: 'Transacción no permitida al tarjetahabiente' },
  noValidNti: { code: '58', description: 'Cobro sin identificador de transacción de red válido' },
} as const satisfies Record<string, ResultMessage>;

// Saved cards (docs/DESIGN.md 8): an approval returns a network transaction id (NTI) of 15
// digits whose last 4 are the card's check (so the acquirer knows an NTI of another card), and
// an MIT must send the initial one: without it, or with another card's, it is declined 58 (hard).
const NTI_CHECK_DIGITS = 4;

function ntiCheck(pan: string): string {
  const value = createHash('sha256').update(`sandbox-nti:${pan}`).digest().readUInt32BE(0) % 10 ** NTI_CHECK_DIGITS;
  return String(value).padStart(NTI_CHECK_DIGITS, '0');
}

/** A new NTI for an approval of this card. */
export function sandboxNti(pan: string): string {
  return `${randomDigits(15 - NTI_CHECK_DIGITS)}${ntiCheck(pan)}`;
}

function isNtiOf(nti: string | null, pan: string): boolean {
  return nti !== null && /^[0-9]{15}$/.test(nti) && nti.endsWith(ntiCheck(pan));
}

/** What an acquirer does with a test PAN instead of approving it. */
type TestPanRule =
  | { kind: 'decline'; message: ResultMessage }
  /** `96` before any decision: a technical failure, nothing to find afterwards. */
  | { kind: 'processor_error' }
  /** Declined `65` (sca_required) unless the authorization carries a 3-D Secure result. */
  | { kind: 'authentication_required' }
  /** Approved, but the answer comes after the connector's timeout (`slow` for that payment). */
  | { kind: 'late' }
  /** Approved without a network transaction id: its card cannot be charged by MIT. */
  | { kind: 'no_nti' }
  /** A saved card's one-click charge declined `05` (soft); any other charge approved. */
  | { kind: 'cit_soft_decline' }
  /** A merchant-initiated charge declined `57` (hard); any other charge approved. */
  | { kind: 'mit_hard_decline' }
  /** The charge that saves the card is declined `65` (sca_required) without 3-D Secure; any other approved. */
  | { kind: 'first_cit_authentication' };

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
  '4000000000001109': { kind: 'no_nti' },
  '4000000000001208': { kind: 'cit_soft_decline' },
  '4000000000001307': { kind: 'mit_hard_decline' },
  '4000000000001406': { kind: 'first_cit_authentication' },
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
      const { pan, expiry, installments, storedCredential } = instrumentFor(instrument, 'CARD');
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
      const merchantInitiated = storedCredential?.initiator === 'MERCHANT';
      if (merchantInitiated && !isNtiOf(storedCredential.initialNti, pan)) {
        return cardOutcome(CARD_DECLINES.noValidNti, card, methodDetails);
      }
      const approved = () => withNti(cardOutcome(null, card, methodDetails), rule?.kind === 'no_nti' ? null : pan);
      switch (rule?.kind) {
        case 'decline':
          return cardOutcome(rule.message, card, methodDetails);
        case 'processor_error':
          return technicalFailure('processor_error', card, methodDetails);
        case 'authentication_required':
          return context.authentication ? approved() : cardOutcome(CARD_DECLINES.authenticationRequired, card, methodDetails);
        case 'cit_soft_decline':
          return storedCredential?.initiator === 'CUSTOMER' && storedCredential.usage === 'SUBSEQUENT'
            ? cardOutcome(DO_NOT_HONOUR, card, methodDetails)
            : approved();
        case 'mit_hard_decline':
          return merchantInitiated ? cardOutcome(CARD_DECLINES.notPermitted, card, methodDetails) : approved();
        case 'first_cit_authentication':
          return storedCredential?.usage === 'FIRST' && !context.authentication
            ? cardOutcome(CARD_DECLINES.authenticationRequired, card, methodDetails)
            : approved();
        case 'late':
        case 'no_nti':
        case undefined:
          return approved();
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

/** An approval with the card's new network transaction id (none for `pan` null). */
function withNti(result: AuthorizeResult, pan: string | null): AuthorizeResult {
  return result.outcome === 'approved' && pan !== null ? { ...result, networkTransactionId: sandboxNti(pan) } : result;
}

export const acquirerA = cardAcquirer({ id: 'sandbox-acquirer-a', name: 'Sandbox card acquirer A' }, ACQUIRER_A_TEST_PANS);

export const acquirerB = cardAcquirer({ id: 'sandbox-acquirer-b', name: 'Sandbox card acquirer B' }, SHARED_TEST_PANS);
