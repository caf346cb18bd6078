import type { CardDescription } from '@/server/domain/card';
import type { PaymentMethod } from '@/server/domain/states';

export type CardHolder = {
  first_name?: string;
  last_name?: string;
  email?: string;
  phone?: { prefix?: string; number?: string };
};

export type AuthorizeRequest =
  | {
      method: 'CARD';
      pan: string;
      expiry_date: string;
      security_code: string;
      card_holder?: CardHolder;
      installments?: { plan?: string; number?: string };
    }
  | {
      method: 'YAPE';
      callback_url?: string;
      phone: { country_code: string; subscriber: string };
      otp: string;
    }
  | { method: 'BANK_TRANSFER' | 'CUOTEALO'; redirect_url?: string; callback_url?: string }
  | { method: 'PAGOEFECTIVO'; redirect_url?: string; callback_url?: string }
  | { method: 'QR'; callback_url?: string };

/** The request variant a connector of method `M` accepts. */
export type RequestFor<M extends PaymentMethod> = AuthorizeRequest & { method: M };

export type ConnectorContext = {
  now: Date;
  transactionId: string;
  amount: bigint;
  currency: string;
  /** Absolute URL of this transaction's hosted payer page. */
  payerPageUrl: string;
  /** Merchant override of the connector's default expiry. */
  expirySeconds?: number;
};

export type ResultMessage = { code: string; description: string };

export type ProcessorResponse = Record<string, string | ResultMessage> & {
  result_message: ResultMessage;
};

export type CardFields = CardDescription;

export type AuthorizeResult =
  | {
      outcome: 'approved';
      stateReason: string;
      processorResponse: ProcessorResponse;
      card: CardFields | null;
      methodDetails: Record<string, unknown>;
    }
  | {
      outcome: 'declined';
      stateReason: string;
      processorResponse: ProcessorResponse;
      card: CardFields | null;
      methodDetails: Record<string, unknown>;
    }
  | {
      outcome: 'pending';
      stateReason: string;
      processorResponse: ProcessorResponse | null;
      expiresAt: Date;
      continueUrl: string | null;
      methodDetails: Record<string, unknown>;
    };

export type PaymentConnector = {
  method: PaymentMethod;
  authorize(request: AuthorizeRequest, context: ConnectorContext): Promise<AuthorizeResult>;
};

function isRequestFor<M extends PaymentMethod>(request: AuthorizeRequest, method: M): request is RequestFor<M> {
  return request.method === method;
}

/** Narrows a request to a connector's method; a mismatch is a programming error. */
export function requestFor<M extends PaymentMethod>(request: AuthorizeRequest, method: M): RequestFor<M> {
  if (!isRequestFor(request, method)) {
    throw new Error(`The ${method} connector cannot authorize a ${request.method} request`);
  }
  return request;
}
