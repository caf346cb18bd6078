import type { z } from 'zod';
import type { CardDescription } from '@/server/domain/card';
import type { CurrencyCode } from '@/server/domain/money';
import type { PaymentMethod } from '@/server/domain/states';
import type { paymentMethodRequest } from '@/server/schemas/charge-request';
import type { DeclineClass } from './decline-class';

// One processor's integration (docs/ORCHESTRATION.md 1). Every connector answers every flow; a
// flow it does not offer answers `not_supported`, so a caller never has to know which processor
// it talks to, and nothing outside payments/ imports a connector (only ./index.ts).

/** The `payment_method` of `POST /charges` as its schema validated it (docs/interface.md 2.2-2.4). */
export type AuthorizeRequest = z.output<typeof paymentMethodRequest>;

/** The request variant a connector of method `M` accepts. */
export type RequestFor<M extends PaymentMethod> = Extract<AuthorizeRequest, { method_name: M }>;

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

export type ConnectorContext = {
  now: Date;
  transactionId: string;
  amount: bigint;
  currency: string;
  /** Absolute URL of this transaction's hosted payer page. */
  payerPageUrl: string;
  /** Merchant override of the connector's default expiry. */
  expirySeconds?: number;
  /** Present when the payer was authenticated with 3-D Secure; one result serves every attempt. */
  authentication?: ThreeDsAuthentication;
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
};

export type AuthorizeResult =
  | (Decided & { outcome: 'approved'; processorResponse: ApprovalResponse })
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
    };

export type NotSupported = { outcome: 'not_supported'; flow: 'reverse' | 'refund' | 'status' };

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
};

export type ReverseResult = { outcome: 'reversed'; code: string } | { outcome: 'refused'; reason: string } | NotSupported;

export type RefundRequest = TransactionReference & { refundId: string };

/** `in_process`: asked again later, the same refund (by `refundId`) answers where it stands. */
export type RefundResult =
  { outcome: 'in_process' } | { outcome: 'resolved' } | { outcome: 'rejected'; reason: string } | NotSupported;

export type StatusResult =
  | { outcome: 'approved'; authorizationCode: string; brandTransactionId: string }
  | { outcome: 'declined'; code: string; declineClass: DeclineClass }
  | { outcome: 'not_found' }
  | { outcome: 'unknown' }
  | NotSupported;

export type ConnectorCapabilities = {
  instalments: boolean;
  /** Authorizes with the result of a 3-D Secure authentication. */
  threeDsResult: boolean;
  reversal: boolean;
  refunds: boolean;
};

export type PaymentConnector = {
  /** Stable id (`sandbox-acquirer-a`): routes and records name a connector by it. */
  id: string;
  name: string;
  methods: readonly PaymentMethod[];
  currencies: readonly CurrencyCode[];
  capabilities: ConnectorCapabilities;
  /** How long an answer may take before the attempt counts as a technical failure. */
  timeoutMs: number;
  authorize(request: AuthorizeRequest, context: ConnectorContext): Promise<AuthorizeResult>;
  /** Undoes an authorization before settlement. */
  reverse(transaction: TransactionReference): Promise<ReverseResult>;
  /** Returns a settled payment's money; idempotent per `refundId`. */
  refund(request: RefundRequest): Promise<RefundResult>;
  /** What the processor knows of a payment after an ambiguous answer. */
  status(transaction: TransactionReference): Promise<StatusResult>;
};

function isRequestFor<M extends PaymentMethod>(request: AuthorizeRequest, method: M): request is RequestFor<M> {
  return request.method_name === method;
}

/** Narrows a request to a connector's method; a mismatch is a programming error. */
export function requestFor<M extends PaymentMethod>(request: AuthorizeRequest, method: M): RequestFor<M> {
  if (!isRequestFor(request, method)) {
    throw new Error(`The ${method} connector cannot authorize a ${request.method_name} request`);
  }
  return request;
}
