import type { CardDescription } from '@/server/core/domain/card';
import type { CurrencyCode } from '@/server/core/domain/money';
import type { PaymentMethod } from '@/server/core/domain/states';
import type { ConnectorCapabilities } from '@/server/core/domain/capabilities';
import type { DeclineClass } from '@/server/core/domain/decline-class';

// One processor's integration (docs/ORCHESTRATION.md 1). Every connector answers every flow; a
// flow it does not offer answers `not_supported`, so a caller never has to know which processor
// it talks to, and nothing outside payments/ imports a connector (only ./index.ts).

/**
 * What a connector is asked to charge: the payer's instrument in the connectors' own terms, not
 * the wire format of the API (the charges module translates `payment_method` into it, once).
 * Optional URLs are the merchant's, echoed in the transaction's `method_details`.
 */
export type PaymentInstrument =
  | {
      method: 'CARD';
      pan: string;
      /** MMYY, as the payer gave it (`parseExpiry` reads it). */
      expiry: string;
      /** Absent from a merchant-initiated charge, and from a one-click charge sent without it. */
      securityCode?: string;
      /** A saved card's charge (../shared CARD-ON-FILE.md 1): absent for a card the payer typed. */
      storedCredential?: StoredCredential;
      /**
       * The one-use token this processor made of the card before its 3-D Secure challenge
       * (`holdCard`): the authorization after the challenge, which has no security code, charges it.
       */
      heldToken?: string;
      holder?: { firstName?: string; lastName?: string };
      installments?: { plan?: string; number?: string };
      returnUrl?: string;
      callbackUrl?: string;
    }
  | { method: 'YAPE'; phone: YapePhone; otp: string; callbackUrl?: string }
  | { method: 'BANK_TRANSFER'; returnUrl: string; callbackUrl?: string }
  | { method: 'CUOTEALO'; returnUrl: string; callbackUrl?: string }
  | { method: 'PAGOEFECTIVO'; returnUrl?: string; callbackUrl?: string }
  | { method: 'QR'; callbackUrl?: string };

/**
 * How a saved card is used: who starts the charge, whether it is the one that saves the card
 * (FIRST) or a later one (SUBSEQUENT), an MIT's reason, and the network transaction id of the
 * card's first CIT, which an MIT sends (null when that approval returned none).
 */
export type StoredCredential = {
  initiator: 'CUSTOMER' | 'MERCHANT';
  usage: 'FIRST' | 'SUBSEQUENT';
  reason: 'RECURRING' | 'INSTALLMENT' | 'UNSCHEDULED' | null;
  initialNti: string | null;
  /** This processor's own token for the card, where it holds one (`capabilities.savedCards.tokenize`). */
  processorToken?: ProcessorCardToken;
  /**
   * The customer's id at this processor (from a token of another of its cards), for a processor
   * whose tokens belong to a customer of its own: a new token joins it rather than making another.
   */
  processorCustomerId?: string;
};

/**
 * A processor's own token for a saved card (Culqi's `crd_`, Mercado Pago's customer card,
 * Izipay's `paymentMethodToken`), and the processor's customer it belongs to where it has one.
 */
export type ProcessorCardToken = { token: string; processorCustomerId: string | null };

/** A Yape account: the country's dialling code (`+51`) and the subscriber's nine digits. */
export type YapePhone = { countryCode: string; subscriber: string };

/** The instrument a connector of method `M` accepts. */
export type InstrumentFor<M extends PaymentMethod> = Extract<PaymentInstrument, { method: M }>;

/**
 * The result of a 3-D Secure authentication the payer passed (docs/ORCHESTRATION.md 5), for a
 * connector whose `capabilities.threeDsResult` says it accepts one. The authentication value is
 * never returned, logged or kept past the authorization.
 */
export type ThreeDsAuthentication = {
  version: string;
  status: 'Y' | 'A';
  eci: string;
  authenticationValue: string;
};

/** What a processor is told of the order and its payer (real processors want an email, a description). */
export type OrderFacts = {
  merchantOperationNumber: string;
  /** The merchant's name, as the payer knows it (a QR's merchant name). */
  merchantName: string;
  /** A short text for the payer's statement and the processor's records. */
  description: string;
  payer: {
    email: string | null;
    firstName: string | null;
    lastName: string | null;
    phone: string | null;
    /** Where the payer lives, when the request said (a line and a city at least): Culqi's customers want one. */
    address?: { line: string; city: string; country: string | null };
  };
};

export type ConnectorContext = {
  now: Date;
  transactionId: string;
  amount: bigint;
  currency: string;
  order: OrderFacts;
  /** Absolute URL of this transaction's hosted payer page. */
  payerPageUrl: string;
  /** Merchant override of the connector's default expiry. */
  expirySeconds?: number;
  /** Present when the payer was authenticated with 3-D Secure; one result serves every attempt. */
  authentication?: ThreeDsAuthentication;
  /**
   * `manual`: authorize only, and capture later (`capture`); asked only of a connector whose
   * `capabilities.separateCapture` says it can.
   */
  capture: 'automatic' | 'manual';
  /**
   * Aborted by the caller once the connector's `timeoutMs` has passed (docs/ORCHESTRATION.md 3):
   * a connector still waiting for its processor stops and answers a `timeout` failure.
   */
  signal: AbortSignal;
};

export type ResultMessage = { code: string; description: string };

export type ProcessorResponse = Record<string, string | ResultMessage> & {
  result_message: ResultMessage;
};

/** What an approval carries: the authorization code and the processor's id of the payment. */
export type ApprovalResponse = {
  authorization_code: string;
  brand_transaction_id: string;
  result_message: ResultMessage;
};

export type CardFields = CardDescription;

/** The processor's decision, as the transaction stores it (docs/interface.md 2.7, 2.8). */
type Decided = {
  stateReason: string;
  card: CardFields | null;
  methodDetails: Record<string, unknown>;
  /**
   * The processor's own id of what it made (a charge, a payment, an order), which its reversal,
   * refunds and status inquiries name; kept in the transaction's `processor_reference` column.
   */
  processorReference?: string;
};

export type AuthorizeResult =
  | (Decided & {
      outcome: 'approved';
      processorResponse: ApprovalResponse;
      /**
       * The card scheme's id of the authorization (Visa's Transaction Identifier, Mastercard's
       * Trace ID), where the processor returns it: a saved card keeps its first one for its MITs.
       */
      networkTransactionId?: string;
      /**
       * The processor's token for the card, made with this approval: asked of a customer-initiated
       * charge of a card to save or saved that the processor holds no token for (provision on use,
       * ../shared CARD-ON-FILE.md 5). Never made for a payment that is not approved.
       */
      cardToken?: ProcessorCardToken;
    })
  | (Decided & { outcome: 'declined'; processorResponse: ProcessorResponse; declineClass: DeclineClass })
  /** No decision: the processor timed out, refused the connection or failed before deciding. */
  | (Decided & {
      outcome: 'technical_failure';
      reason: 'timeout' | 'connection_refused' | 'processor_error';
      processorResponse: ProcessorResponse | null;
    })
  /** The issuer wants 3-D Secure first: the payer must pass a challenge at `challengeUrl`. */
  | (Decided & {
      outcome: 'challenge';
      processorResponse: ProcessorResponse | null;
      challengeUrl: string;
      expiresAt: Date;
    })
  /** The payer completes the payment later (redirect, cash code, QR), before `expiresAt`. */
  | {
      outcome: 'pending';
      stateReason: string;
      processorResponse: ProcessorResponse | null;
      expiresAt: Date;
      continueUrl: string | null;
      methodDetails: Record<string, unknown>;
      processorReference?: string;
      /** A sandbox processor's page that simulates the payer's payment (`additional_fields.sandbox.pay_url`). */
      simulatedPaymentUrl?: string;
    };

export type NotSupported = {
  outcome: 'not_supported';
  flow:
    'reverse' | 'refund' | 'status' | 'notification' | 'capture' | 'verify' | 'provision_token' | 'delete_token' | 'hold_card';
};

/** The answer of a flow the connector does not offer (its capabilities say which). */
export function notSupported(flow: NotSupported['flow']): NotSupported {
  return { outcome: 'not_supported', flow };
}

/** An authorized transaction, as the service holds it (never the PAN or security code). */
export type TransactionReference = {
  transactionId: string;
  method: PaymentMethod;
  amount: bigint;
  currency: string;
  /** BIN and last four of the card (or wallet card), when the transaction has one. */
  card: { bin: string; last4: string } | null;
  /** The processor's id of the payment, when its answer gave one (`Decided.processorReference`). */
  processorReference: string | null;
  /** When the attempt was made: a processor searched by date finds the payment around it. */
  createdAt: Date | null;
};

/** `unavailable`: the processor could not be asked or its answer was lost; asking again finds where it stands. */
export type ReverseResult =
  { outcome: 'reversed'; code: string } | { outcome: 'refused'; reason: string } | { outcome: 'unavailable' } | NotSupported;

/**
 * A refund of `refundAmount` of a payment (`amount` stays what was authorized). `registeredAt`:
 * when the refund was taken; a processor that keeps no idempotency key looks for it from then.
 */
export type RefundRequest = TransactionReference & { refundId: string; refundAmount: bigint; registeredAt: Date };

/**
 * A capture of an authorization made with `capture: 'manual'`: `captureAmount` of it (all of
 * `amount`, or less where `capabilities.partialCapture`; the processor releases the rest). One
 * capture per authorization: asked again after a lost answer, a connector answers `captured`
 * for the capture already made of that amount, never a second one.
 */
export type CaptureRequest = TransactionReference & { captureAmount: bigint };

/** `unavailable`: not asked, or its answer was lost: a status inquiry finds whether it was captured. */
export type CaptureResult =
  { outcome: 'captured' } | { outcome: 'refused'; reason: string } | { outcome: 'unavailable' } | NotSupported;

/**
 * A zero-amount account verification of a card to save without a payment
 * (`capabilities.savedCards.zeroAmountVerify`): no money moves. `unavailable`: not asked, or its
 * answer was lost; nothing was saved, so it is asked again or elsewhere.
 */
export type VerifyResult =
  | { outcome: 'verified'; card: CardFields | null; networkTransactionId?: string; cardToken?: ProcessorCardToken }
  | { outcome: 'declined'; resultMessage: ResultMessage; declineClass: DeclineClass }
  | { outcome: 'unavailable' }
  | NotSupported;

/**
 * The processor's own token for a card whose customer-initiated charge it just approved, made once
 * the approval is recorded (`capabilities.savedCards.tokenize`, where the authorization's answer
 * does not carry one already). `unavailable`: none made (refused, lost, out of time, or the payer
 * lacks what the processor wants); the approval stands either way.
 */
export type ProvisionTokenResult =
  { outcome: 'provisioned'; token: ProcessorCardToken } | { outcome: 'unavailable' } | NotSupported;

/**
 * A one-use token of a card the payer typed, made before the payment waits for its 3-D Secure
 * challenge, while the security code is still in memory: the service keeps no code (../shared
 * CARD-ON-FILE.md 1), and a processor that authorizes no card without it (`capabilities.cardWithoutCode`
 * false) charges this token after the challenge (`heldToken`), until `expiresAt`. `unavailable`:
 * none made; the authorization after the challenge then goes to a processor that needs no code.
 */
export type HoldCardResult = { outcome: 'held'; token: string; expiresAt: Date } | { outcome: 'unavailable' } | NotSupported;

/**
 * The deletion of a removed card's token at its processor (`capabilities.savedCards.deleteToken`).
 * `deleted` also for a token the processor no longer has; `unavailable`: asked again later.
 */
export type DeleteTokenResult = { outcome: 'deleted' } | { outcome: 'unavailable' } | NotSupported;

/** `in_process`: asked again later, the same refund (by `refundId`) answers where it stands. */
export type RefundResult =
  { outcome: 'in_process' } | { outcome: 'resolved' } | { outcome: 'rejected'; reason: string } | NotSupported;

export type StatusResult =
  | {
      outcome: 'approved';
      authorizationCode: string;
      brandTransactionId: string;
      processorReference?: string;
      /**
       * Of an authorization to capture later: what was captured, null while nothing is. Absent
       * from a processor that captured with the authorization.
       */
      capturedAmount?: bigint | null;
    }
  | { outcome: 'declined'; code: string; declineClass: DeclineClass }
  | { outcome: 'not_found' }
  | { outcome: 'unknown' }
  | NotSupported;

/** A notification a processor POSTed to the service, as it arrived (its body unparsed: signatures cover the bytes). */
export type IncomingNotification = {
  headers: { get(name: string): string | null };
  query: URLSearchParams;
  body: string;
  receivedAt: Date;
};

/** What a notification's payment is now, as the processor says when asked (never as the notification claims). */
export type PaymentChange =
  /** A payment order its payer paid (a cash code, Cuotéalo): PENDIENTE becomes AUTORIZADO. */
  | { kind: 'paid'; operationId: string; paidAt: Date }
  /** A payment order that ended unpaid: PENDIENTE becomes EXPIRADO, or CANCELADO when voided. */
  | { kind: 'expired' }
  | { kind: 'voided' }
  /** A card or Yape payment decided (one whose answer was lost is settled by it). */
  | { kind: 'approved'; authorizationCode: string; brandTransactionId: string; processorReference?: string }
  | { kind: 'declined'; code: string; declineClass: DeclineClass }
  /** The payment's money went back to the payer (a refund the processor resolved). */
  | { kind: 'refunded' }
  /** Nothing the service tracks changed (the processor's own bookkeeping). */
  | { kind: 'none' };

export type NotificationResult =
  /** Not verifiable as the processor's (no or wrong credentials or signature, stale): nothing changes. */
  | { outcome: 'refused'; reason: string }
  | {
      outcome: 'accepted';
      /** The processor's id of the notification: a retried or replayed one has the same. */
      externalId: string;
      /** The processor's event name (`order.status.changed`, `payment.updated`). */
      kind: string;
      /** The processor's id of the payment or order it names. */
      resource: string;
      /** Our transaction, as the processor's record of the payment names it; null when none of ours. */
      transactionId: string | null;
      change: PaymentChange;
    }
  /** Verified as the processor's, but not a notification it documents: nothing changes (400). */
  | { outcome: 'malformed'; reason: string }
  /** The processor could not say what the payment is now: the notification is to be retried. */
  | { outcome: 'unavailable' }
  | NotSupported;

export type { ConnectorCapabilities };

export type PaymentConnector = {
  /** Stable id (`sandbox-acquirer-a`): routes and records name a connector by it. */
  id: string;
  name: string;
  methods: readonly PaymentMethod[];
  currencies: readonly CurrencyCode[];
  capabilities: ConnectorCapabilities;
  /** How long an answer may take before the attempt counts as a technical failure. */
  timeoutMs: number;
  authorize(instrument: PaymentInstrument, context: ConnectorContext): Promise<AuthorizeResult>;
  /**
   * Undoes what the processor made for a payment not yet settled: an authorization (voided or
   * returned), or a payment order its payer has not paid (deleted, so it can no longer be paid).
   */
  reverse(transaction: TransactionReference): Promise<ReverseResult>;
  /** Returns a settled payment's money; idempotent per `refundId`. */
  refund(request: RefundRequest): Promise<RefundResult>;
  /** Captures an authorization made to be captured later (`capabilities.separateCapture`). */
  capture(request: CaptureRequest): Promise<CaptureResult>;
  /** What the processor knows of a payment after an ambiguous answer. */
  status(transaction: TransactionReference): Promise<StatusResult>;
  /** Verifies a card for a zero amount, to save it without a payment (`capabilities.savedCards.zeroAmountVerify`). */
  verifyCard(instrument: InstrumentFor<'CARD'>, context: ConnectorContext): Promise<VerifyResult>;
  /** Makes the processor's token of a card it has just approved a customer-initiated charge of (`capabilities.savedCards.tokenize`). */
  provisionCardToken(instrument: InstrumentFor<'CARD'>, context: ConnectorContext): Promise<ProvisionTokenResult>;
  /** Makes a one-use token of a card about to wait for its 3-D Secure challenge (`HoldCardResult`). */
  holdCard(instrument: InstrumentFor<'CARD'>, context: ConnectorContext): Promise<HoldCardResult>;
  /** Deletes the processor's token of a removed card (`capabilities.savedCards.deleteToken`). */
  deleteCardToken(token: ProcessorCardToken): Promise<DeleteTokenResult>;
  /**
   * A notification the processor sent about one of its payments: verified, then the payment asked
   * for as it stands. Answers `not_supported` for a processor that sends none.
   */
  notification(notification: IncomingNotification): Promise<NotificationResult>;
};

/** Narrows an instrument to a connector's method; a mismatch is a programming error. */
export function instrumentFor<M extends PaymentMethod>(instrument: PaymentInstrument, method: M): InstrumentFor<M> {
  if (instrument.method !== method) {
    throw new Error(`The ${method} connector cannot authorize a ${instrument.method} request`);
  }
  return instrument as InstrumentFor<M>;
}
