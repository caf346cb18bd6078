import { field, processorApi, text, type ProcessorAnswer } from '../processor-http';
import type { ProcessorAccountConfig, ProcessorEndpoints } from '../processor-account';

// Izipay's REST API V4 (micuentaweb, Lyra's platform white-labelled: docs/processors/izipay.md) as
// one account calls it. Every web service is `POST https://api.micuentaweb.pe/api-payment/V4/<WS>`
// with a JSON body and `Authorization: Basic base64(<shop id>:<REST password>)` (research §1.1:
// [php-ex] Client.php, [izi-node] paidController.js, [izi-php] README.md). One host serves test
// and production: the password's prefix (`testpassword_` / `prodpassword_`) says which, and every
// answer echoes it as `mode` (§1.1). Answers are an envelope `{webService, status: SUCCESS|ERROR,
// mode, answer, …}` with HTTP 200 even for business errors, bad credentials included (§1.1, §8.1
// [LY-ws], [3P-misc]); the official SDK also parses HTTP 401 (§1.1), anything else is a transport
// failure.

/** The web services this connector calls (research §2.2, §3.1, §4.1, §5.1, §6.1). */
export type IzipayWebService =
  | 'Charge/CreatePayment'
  | 'Charge/CreateToken'
  | 'Token/Cancel'
  | 'Order/Get'
  | 'Transaction/Get'
  | 'Transaction/Update'
  | 'Transaction/Validate'
  | 'Transaction/CancelOrRefund';

/** `answer` of an ERROR envelope (§8.1 [LY-err]). */
export type IzipayError = {
  errorCode: string;
  errorMessage: string | null;
  detailedErrorCode: string | null;
  detailedErrorMessage: string | null;
};

/** A transaction (`V4/PaymentTransaction`) as far as the connector reads it (§6.1, [php-ex] helpers.php). */
export type IzipayTransaction = {
  uuid: string;
  amount: number;
  currency: string;
  /** PAID, UNPAID, RUNNING, ABANDONED (§6.1 [LY-status]). */
  status: string;
  /** The card's token at Izipay, when the payment registered it or was made with it. */
  paymentMethodToken?: string | null;
  /** AUTHORISED, AUTHORISED_TO_VALIDATE, CAPTURED, REFUSED, CANCELLED … (§6.1). */
  detailedStatus: string;
  /** DEBIT (a payment) or CREDIT (a refund, §5.1 [mag]). */
  operationType: string;
  creationDate?: string;
  errorCode?: string | null;
  errorMessage?: string | null;
  detailedErrorCode?: string | null;
  detailedErrorMessage?: string | null;
  transactionDetails?: {
    parentTransactionUuid?: string | null;
    cardDetails?: {
      manualValidation?: string | null;
      /** The scheme's id of the first authorization, which later MITs of the card send. */
      initialIssuerTransactionIdentifier?: string | null;
      authorizationResponse?: { authorizationNumber?: string | null } | null;
      captureResponse?: { refundAmount?: number | null } | null;
    } | null;
  } | null;
};

/** What a web service answered: its `answer` (SUCCESS or ERROR), or no answer to read. */
export type IzipayAnswer =
  | { kind: 'success'; answer: Record<string, unknown>; mode: string | null }
  | { kind: 'error'; error: IzipayError }
  /** The request never reached Izipay (nothing was done). */
  | { kind: 'refused' }
  /** Lost on the way, a 5xx, or a body that is no envelope: Izipay may have done it. */
  | { kind: 'lost' };

export type IzipayClient = {
  call(webService: IzipayWebService, body: Record<string, unknown>, signal?: AbortSignal): Promise<IzipayAnswer>;
};

/** `Authorization: Basic base64(shopId:password)` (§1.1). */
export function basicAuthorization(shopId: string, password: string): string {
  return `Basic ${Buffer.from(`${shopId}:${password}`, 'utf8').toString('base64')}`;
}

function envelopeOf(answer: ProcessorAnswer): IzipayAnswer {
  if (answer.kind === 'refused') return { kind: 'refused' };
  if (answer.kind === 'lost') return { kind: 'lost' };
  // The SDK reads 200 and 401 (§1.1); a 5xx or a gateway page may come after the work was done.
  if (answer.status !== 200 && answer.status !== 401) return { kind: 'lost' };
  const status = text(field(answer.body, 'status'));
  const body = field(answer.body, 'answer');
  if (body === null || typeof body !== 'object') return { kind: 'lost' };
  if (status === 'SUCCESS') {
    return { kind: 'success', answer: body as Record<string, unknown>, mode: text(field(answer.body, 'mode')) ?? null };
  }
  if (status === 'ERROR') {
    return {
      kind: 'error',
      error: {
        errorCode: text(field(body, 'errorCode')) ?? 'ERROR',
        errorMessage: text(field(body, 'errorMessage')) ?? null,
        detailedErrorCode: text(field(body, 'detailedErrorCode')) ?? null,
        detailedErrorMessage: text(field(body, 'detailedErrorMessage')) ?? null,
      },
    };
  }
  return { kind: 'lost' };
}

export function izipayClient(account: ProcessorAccountConfig, endpoints: ProcessorEndpoints): IzipayClient {
  const api = processorApi(`${endpoints.izipayApi}/api-payment/V4`, endpoints.timeoutMs);
  const headers = { authorization: basicAuthorization(account.publicKey, account.secretKey) };
  return {
    call: async (webService, body, signal) => envelopeOf(await api('POST', `/${webService}`, { headers, body, signal })),
  };
}

/**
 * The words of an Izipay error: its detailed message, else its message, else its code. A detailed
 * message echoes the refused input (`Invalid input value [name=customer.email, value=fake-email]`,
 * §8.1 [LY-err]), which may be a card number: the value is cut out.
 */
export function errorWords(error: IzipayError): string {
  const words = error.detailedErrorMessage ?? error.errorMessage ?? `Izipay: ${error.errorCode}`;
  return words.replace(/value=[^\]]*/g, 'value=…');
}

/** A transaction object in an answer, when the answer is one. */
export function transactionOf(value: unknown): IzipayTransaction | null {
  return typeof field(value, 'uuid') === 'string' &&
    typeof field(value, 'status') === 'string' &&
    typeof field(value, 'amount') === 'number'
    ? (value as IzipayTransaction)
    : null;
}

/** The transactions of a `V4/Payment` or of `Order/Get`'s answer (`answer.transactions[]`, §6.1 [mag]). */
export function transactionsOf(answer: Record<string, unknown>): IzipayTransaction[] {
  const list = answer.transactions;
  return Array.isArray(list) ? list.map(transactionOf).filter((each) => each !== null) : [];
}
