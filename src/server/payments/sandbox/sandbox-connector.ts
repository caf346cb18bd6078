import { away } from '@/server/platform/http/time-away';
import { createHash } from 'node:crypto';
import {
  notSupported,
  type ConnectorContext,
  type PaymentInstrument,
  type AuthorizeResult,
  type PaymentConnector,
  type RefundRequest,
  type RefundResult,
} from '../connector';
import { declineClassOf } from '@/server/core/domain/decline-class';
import { technicalFailure } from '../outcomes';
import { cardOutcome, DO_NOT_HONOUR } from './card-outcome';
import type { SandboxDecision, SandboxStore } from './sandbox-store';

// What every sandbox processor shares, written once (docs/ORCHESTRATION.md 1): the admin's
// modes, the record of what it decided (so `status` after an ambiguous answer finds it, and
// `reverse` undoes only what it approved), and the timeout. Each processor's file holds only its
// own rules (docs/DESIGN.md 8) as a SandboxProcessor; sandboxConnector makes it a connector.

/** A sandbox processor's own rules: what it decides for a request, before any mode applies. */
export type SandboxProcessor = Pick<PaymentConnector, 'id' | 'name' | 'methods' | 'currencies' | 'capabilities' | 'authorize'> & {
  /** Its refund rule, where `capabilities.refunds` (without one, every refund is resolved). */
  refund?(request: RefundRequest): Promise<RefundResult>;
  /** Payments it decides but answers only after the timeout (a test PAN): `slow` for that payment. */
  answersLate?(instrument: PaymentInstrument): boolean;
};

/** `flaky` mode's third of requests: SHA-256 of the transaction id mod 3 is 0, so tests know which. */
export function failsFlakily(transactionId: string): boolean {
  const digest = createHash('sha256').update(transactionId).digest('hex');
  return BigInt(`0x${digest}`) % 3n === 0n;
}

/** What the processor keeps of an answer; a technical failure decided nothing. */
function decisionOf(result: AuthorizeResult, capture: ConnectorContext['capture']): SandboxDecision | null {
  switch (result.outcome) {
    case 'approved':
      return {
        outcome: 'approved',
        authorizationCode: result.processorResponse.authorization_code,
        brandTransactionId: result.processorResponse.brand_transaction_id,
        ...(capture === 'manual' ? { uncaptured: true } : {}),
      };
    case 'declined':
      return { outcome: 'declined', code: result.processorResponse.result_message.code };
    case 'pending':
      return { outcome: 'pending' };
    case 'technical_failure':
    case 'challenge':
      return null;
  }
}

/**
 * Resolves when `signal` aborts or `timeoutMs` passes, whichever comes first: the processor's
 * network time, away from the service (platform/http/time-away.ts).
 */
function timeoutPassed(signal: AbortSignal, timeoutMs: number): Promise<void> {
  return away(
    () =>
      new Promise<void>((resolve) => {
        if (signal.aborted) {
          resolve();
          return;
        }
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        signal.addEventListener('abort', done, { once: true });
      }),
  );
}

/**
 * The connector of a sandbox processor, its modes read from `store` on every call:
 * - `normal`: the processor's rules;
 * - `outage`: refuses the connection at once (`connection_refused`), decides and records nothing;
 *   reversals are refused, refunds stay in process and status is unknown until it is back;
 * - `slow`: decides and records as in `normal`, but answers only when the caller gives up
 *   (`context.signal`) or `timeoutMs` passes, with a `timeout` failure; `status` finds the decision;
 * - `flaky`: the third of payments `failsFlakily` names fail with `96` before a decision;
 * - `declining`: declines everything `05` (pending methods too).
 * `slow`, `flaky` and `declining` touch authorization only: a processor that still answers answers
 * its inquiries, captures, reversals and refunds as usual. A processor whose capabilities say
 * `separateCapture` keeps an authorization made with `capture: 'manual'` uncaptured until
 * `capture` takes it (all, or part where `partialCapture`), once.
 */
export function sandboxConnector(processor: SandboxProcessor, store: SandboxStore, timeoutMs: number): PaymentConnector {
  const { id, name, methods, currencies, capabilities } = processor;
  const inOutage = async () => (await store.modeOf(id)).mode === 'outage';
  return {
    id,
    name,
    methods,
    currencies,
    capabilities,
    timeoutMs,
    async authorize(instrument, context) {
      // The rules run first in every mode: a request of another method stays a programming error,
      // and every answer describes the card the request carried.
      const ruled = await processor.authorize(instrument, context);
      const card = ruled.outcome === 'pending' ? null : ruled.card;
      const { mode } = await store.modeOf(id);
      if (mode === 'outage') return technicalFailure('connection_refused', card, ruled.methodDetails);
      if (mode === 'flaky' && failsFlakily(context.transactionId)) {
        return technicalFailure('processor_error', card, ruled.methodDetails);
      }
      const result = mode === 'declining' ? cardOutcome(DO_NOT_HONOUR, card, ruled.methodDetails) : ruled;
      const decision = decisionOf(result, context.capture);
      if (decision !== null) await store.record(id, context.transactionId, decision);
      if (mode === 'slow' || processor.answersLate?.(instrument)) {
        await timeoutPassed(context.signal, timeoutMs);
        return technicalFailure('timeout', card, ruled.methodDetails);
      }
      return result;
    },
    async verifyCard(instrument, context) {
      if (!capabilities.savedCards.zeroAmountVerify) return notSupported('verify');
      // The card rules of an authorization, for no money: nothing is recorded, nothing to capture.
      const ruled = await processor.authorize(instrument, { ...context, amount: 0n });
      const { mode } = await store.modeOf(id);
      if (mode === 'outage' || mode === 'slow' || ruled.outcome === 'technical_failure') return { outcome: 'unavailable' };
      if (mode === 'declining') return { outcome: 'declined', resultMessage: DO_NOT_HONOUR, declineClass: 'soft' };
      if (ruled.outcome === 'declined') {
        return { outcome: 'declined', resultMessage: ruled.processorResponse.result_message, declineClass: ruled.declineClass };
      }
      if (ruled.outcome !== 'approved') return { outcome: 'unavailable' };
      return {
        outcome: 'verified',
        card: ruled.card,
        ...(ruled.networkTransactionId ? { networkTransactionId: ruled.networkTransactionId } : {}),
      };
    },
    // A sandbox processor keeps no token of its own: the vault's PAN is what it takes.
    provisionCardToken: async () => notSupported('provision_token'),
    // It authorizes a card without its code (cardWithoutCode): nothing to hold before a challenge.
    holdCard: async () => notSupported('hold_card'),
    deleteCardToken: async () => notSupported('delete_token'),
    async reverse(transaction) {
      if (!capabilities.reversal) return notSupported('reverse');
      if (await inOutage()) return { outcome: 'refused', reason: 'El procesador no está disponible' };
      const decision = await store.find(id, transaction.transactionId);
      if (decision === null) return { outcome: 'refused', reason: 'El procesador no registra este pago' };
      if (decision.outcome !== 'approved') return { outcome: 'refused', reason: 'El procesador no aprobó este pago' };
      await store.void(id, transaction.transactionId);
      return { outcome: 'reversed', code: '00' };
    },
    async capture({ transactionId, amount, captureAmount }) {
      if (!capabilities.separateCapture) return notSupported('capture');
      if (await inOutage()) return { outcome: 'unavailable' };
      const refused = (reason: string) => ({ outcome: 'refused' as const, reason });
      if (captureAmount !== amount && !capabilities.partialCapture) return refused('El procesador solo captura el monto total');
      const after = await store.capture(id, transactionId, captureAmount);
      if (after === null) return refused('El procesador no registra este pago');
      if (after.outcome !== 'approved') return refused('El procesador no aprobó este pago');
      if (!after.uncaptured) return refused('El pago se capturó con su autorización');
      if (after.voided) return refused('La autorización fue anulada');
      // Asked again after a lost answer, the capture already made answers as it did.
      if (after.capturedAmount !== captureAmount) return refused('El pago ya se capturó por otro monto');
      return { outcome: 'captured' };
    },
    async refund(request) {
      if (!capabilities.refunds) return notSupported('refund');
      // Asked again on the next pass, as a refund the processor has not finished.
      if (await inOutage()) return { outcome: 'in_process' };
      return processor.refund ? processor.refund(request) : { outcome: 'resolved' };
    },
    // The sandbox processors' payers finish on the service's own pages: nothing to notify.
    async notification() {
      return notSupported('notification');
    },
    async status(transaction) {
      if (await inOutage()) return { outcome: 'unknown' };
      const decision = await store.find(id, transaction.transactionId);
      if (decision === null) return { outcome: 'not_found' };
      switch (decision.outcome) {
        case 'approved':
          return {
            outcome: 'approved',
            authorizationCode: decision.authorizationCode,
            brandTransactionId: decision.brandTransactionId,
            ...(decision.uncaptured ? { capturedAmount: decision.voided ? null : (decision.capturedAmount ?? null) } : {}),
          };
        case 'declined':
          return { outcome: 'declined', code: decision.code, declineClass: declineClassOf(decision.code) };
        case 'pending':
          // The payer has not finished (or finished on our own page): the processor cannot tell.
          return { outcome: 'unknown' };
      }
    },
  };
}
