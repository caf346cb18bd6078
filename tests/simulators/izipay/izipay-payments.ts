import { createHash, randomBytes, randomInt } from 'node:crypto';
import { brandOf, isLuhnValid, outcomeOf } from './izipay-test-data';

// The web services of Izipay's REST API V4 the simulator answers (README.md; research
// docs/processors/sources/izipay-api.md, cited by section), on the state of one simulator.

export type Account = { shopId: string; password: string; ipnUrl: string | null };

export type Transaction = {
  shopId: string;
  uuid: string;
  orderId: string | null;
  operationType: 'DEBIT' | 'CREDIT';
  amount: number;
  /** The amount first authorized (Transaction/Update only lowers `amount`). */
  initialAmount: number;
  currency: string;
  status: 'PAID' | 'UNPAID' | 'RUNNING';
  detailedStatus: string;
  manualValidation: 'YES' | 'NO';
  /** When an AUTHORISED transaction is remitted (CAPTURED) at Izipay's batch. */
  remitAt: number | null;
  errorCode: string | null;
  errorMessage: string | null;
  detailedErrorCode: string | null;
  detailedErrorMessage: string | null;
  authorizationNumber: string | null;
  maskedPan: string | null;
  brand: string | null;
  expiryMonth: number | null;
  expiryYear: number | null;
  refundAmount: number;
  parentTransactionUuid: string | null;
  ipnTargetUrl: string | null;
  customerEmail: string | null;
  metadata: Record<string, unknown> | null;
  creationDate: string;
  /** The card's token: registered by this payment, or the one it was made with. */
  paymentMethodToken: string | null;
  /** NEW for a card sent, TOKEN for a token's payment (the recorded SILENT answer). */
  paymentMethodSource: 'NEW' | 'TOKEN';
  /** CHARGE, or VERIFICATION for Charge/CreateToken's zero-amount check. */
  creationContext: 'CHARGE' | 'VERIFICATION';
  initialIssuerTransactionIdentifier: string | null;
};

/** A registered card (Lyra's token): its number kept at Izipay until the token is cancelled. */
export type CardToken = { shopId: string; pan: string; expiryMonth: number; expiryYear: number; cancelled: boolean };

export type State = {
  accounts: Map<string, Account>;
  transactions: Map<string, Transaction>;
  tokens: Map<string, CardToken>;
  /** Each listener's mode of remittance: how long after validation an AUTHORISED transaction stays so. */
  captureDelayMs: number;
};

/** What a web service answered: its `answer` under SUCCESS, or an error under ERROR (§6.1 envelope). */
export type WsResult = { ok: true; answer: Record<string, unknown> } | { ok: false; error: WsError };
export type WsError = {
  errorCode: string;
  errorMessage: string;
  detailedErrorCode?: string | null;
  detailedErrorMessage?: string | null;
};

export function wsError(errorCode: string, errorMessage: string, detailedErrorMessage: string | null = null): WsResult {
  return { ok: false, error: { errorCode, errorMessage, detailedErrorCode: null, detailedErrorMessage } };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** An integer amount (a number or a string of digits: §2.2 [MCW-pci-fr] sends "990"), else null. */
function integerAmount(value: unknown): number | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  if (typeof value === 'string' && /^\d{1,12}$/.test(value) && Number(value) > 0) return Number(value);
  return null;
}

/** Remittance (§3.1, §6.1 [LY-status]: AUTHORISED "will be captured automatically" → CAPTURED). */
export function settle(state: State, transaction: Transaction, now = Date.now()): Transaction {
  if (transaction.detailedStatus === 'AUTHORISED' && transaction.remitAt !== null && now >= transaction.remitAt) {
    transaction.detailedStatus = 'CAPTURED';
  }
  void state;
  return transaction;
}

/** A transaction as `V4/PaymentTransaction` (§6.1, [php-ex] helpers.php IPN sample): never the card number. */
export function renderTransaction(transaction: Transaction): Record<string, unknown> {
  return {
    shopId: transaction.shopId,
    uuid: transaction.uuid,
    amount: transaction.amount,
    currency: transaction.currency,
    paymentMethodType: 'CARD',
    paymentMethodToken: transaction.paymentMethodToken,
    status: transaction.status,
    detailedStatus: transaction.detailedStatus,
    operationType: transaction.operationType,
    effectiveStrongAuthentication: 'DISABLED',
    creationDate: transaction.creationDate,
    errorCode: transaction.errorCode,
    errorMessage: transaction.errorMessage,
    detailedErrorCode: transaction.detailedErrorCode,
    detailedErrorMessage: transaction.detailedErrorMessage,
    metadata: transaction.metadata,
    transactionDetails: {
      liabilityShift: 'NO',
      effectiveAmount: transaction.amount,
      effectiveCurrency: transaction.currency,
      creationContext: transaction.operationType === 'CREDIT' ? 'REFUND' : transaction.creationContext,
      cardDetails: {
        paymentSource: 'EC',
        manualValidation: transaction.manualValidation,
        expectedCaptureDate: transaction.creationDate,
        effectiveBrand: transaction.brand,
        pan: transaction.maskedPan,
        expiryMonth: transaction.expiryMonth,
        expiryYear: transaction.expiryYear,
        country: 'PE',
        legacyTransId: transaction.uuid.slice(0, 6),
        authorizationResponse: {
          amount: transaction.initialAmount,
          currency: transaction.currency,
          authorizationDate: transaction.creationDate,
          authorizationNumber: transaction.authorizationNumber,
          authorizationResult: transaction.errorCode === null ? '0' : (transaction.detailedErrorCode ?? '05'),
          authorizationMode: 'FULL',
        },
        captureResponse: {
          refundAmount: transaction.operationType === 'DEBIT' ? transaction.refundAmount : null,
          captureDate: transaction.detailedStatus === 'CAPTURED' ? transaction.creationDate : null,
          captureFileNumber: null,
          refundCurrency: transaction.refundAmount > 0 ? transaction.currency : null,
        },
        threeDSResponse: { authenticationResultData: null },
        installmentNumber: null,
        paymentMethodSource: transaction.paymentMethodSource,
        initialIssuerTransactionIdentifier: transaction.initialIssuerTransactionIdentifier,
      },
      fraudManagement: null,
      parentTransactionUuid: transaction.parentTransactionUuid,
      mid: '4001834',
      sequenceNumber: 1,
    },
    _type: 'V4/PaymentTransaction',
  };
}

/** The order as `V4/Payment` (§6.1; [MCW-pci-fr] answer; the IPN's kr-answer). */
export function renderPayment(state: State, transaction: Transaction): Record<string, unknown> {
  const debits = [...state.transactions.values()].filter(
    (each) => each.shopId === transaction.shopId && each.orderId === transaction.orderId && each.operationType === 'DEBIT',
  );
  const paid = debits.some((each) => each.status === 'PAID');
  return {
    shopId: transaction.shopId,
    orderCycle: 'CLOSED',
    orderStatus: paid ? 'PAID' : transaction.status,
    serverDate: new Date().toISOString().replace(/\.\d{3}Z$/, '+00:00'),
    orderDetails: {
      orderTotalAmount: transaction.initialAmount,
      orderEffectiveAmount: transaction.amount,
      orderCurrency: transaction.currency,
      mode: state.accounts.get(transaction.shopId)?.password.startsWith('prodpassword_') ? 'PRODUCTION' : 'TEST',
      orderId: transaction.orderId,
      metadata: null,
      _type: 'V4/OrderDetails',
    },
    customer: { email: transaction.customerEmail, _type: 'V4/Customer/Customer' },
    transactions: [renderTransaction(transaction)],
    _type: 'V4/Payment',
  };
}

const uuid = () => randomBytes(16).toString('hex');
const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, '+00:00');

/** Top-level inputs of Charge/CreatePayment (§2.1, §2.2 [CI-pg], [MCW-pcipg]); any other is INT_900. */
const CREATE_FIELDS = new Set([
  'amount',
  'currency',
  'orderId',
  'customer',
  'paymentForms',
  'formAction',
  'metadata',
  'ipnTargetUrl',
  'strongAuthentication',
  'fingerPrintId',
  'contrib',
  'transactionOptions',
  'device',
  'merchantPostUrlSuccess',
  'merchantPostUrlRefused',
  'acquirerTransientData',
  'paymentMethodToken',
]);

/** The scheme's transaction id of a card's approval, as `initialIssuerTransactionIdentifier` (16 digits, as recorded). */
export function issuerTransactionIdOf(shopId: string, pan: string): string {
  const digest = createHash('sha256').update(`${shopId}:${pan}`).digest();
  return (digest.readBigUInt64BE(0) % 10n ** 16n).toString().padStart(16, '0');
}

/** formAction values the simulator takes (§2.2): a payment, one that registers its card, a token's payment. */
const FORM_ACTIONS = new Set(['PAYMENT', 'REGISTER_PAY', 'SILENT']);

type CardSent = { pan: string; month: number; year: number; securityCode: string | null; token: string | null };

/** The card a payment or verification carries: `paymentForms[0]`'s, or a SILENT payment's token's. */
function cardOf(state: State, account: Account, body: Record<string, unknown>, needsCode: boolean): CardSent | WsResult {
  const token = body.paymentMethodToken;
  if (token !== undefined) {
    if (body.formAction !== 'SILENT' || body.paymentForms !== undefined)
      return wsError(
        'INT_902',
        'web-service input data validation error',
        'a paymentMethodToken is paid SILENT, without paymentForms',
      );
    const held = typeof token === 'string' ? state.tokens.get(token) : undefined;
    if (!held || held.shopId !== account.shopId || held.cancelled) return wsError('INT_030', 'invalid paymentMethodToken');
    return { pan: held.pan, month: held.expiryMonth, year: held.expiryYear, securityCode: null, token: token as string };
  }
  const forms = body.paymentForms;
  // Without card data this would be a formToken request (§2.1), which the simulator does not make.
  if (!Array.isArray(forms) || forms.length !== 1 || !isObject(forms[0]))
    return wsError('INT_902', 'web-service input data validation error', 'paymentForms must hold one card');
  const form = forms[0];
  if (form.paymentMethodType !== 'CARD')
    return wsError('INT_902', 'web-service input data validation error', 'paymentMethodType must be CARD');
  const pan = form.pan;
  if (typeof pan !== 'string' || !/^\d{13,19}$/.test(pan) || !isLuhnValid(pan)) return wsError('INT_040', 'invalid pan');
  const month = Number(form.expiryMonth);
  const year = Number(form.expiryYear);
  if (!Number.isInteger(month) || month < 1 || month > 12) return wsError('INT_041', 'invalid expiryMonth');
  if (!Number.isInteger(year) || year < 0 || year > 99) return wsError('INT_042', 'invalid expiryYear');
  const today = new Date();
  if (2000 + year < today.getUTCFullYear() || (2000 + year === today.getUTCFullYear() && month < today.getUTCMonth() + 1))
    return wsError('INT_045', 'invalid expiration date');
  const securityCode = form.securityCode;
  // A card sent without its security code is an MIT's, which carries the first CIT's issuer id.
  if (securityCode === undefined && !needsCode) return { pan, month, year, securityCode: null, token: null };
  if (typeof securityCode !== 'string' || !(brandOf(pan) === 'AMEX' ? /^\d{4}$/ : /^\d{3}$/).test(securityCode))
    return wsError('INT_043', 'invalid securityCode');
  return { pan, month, year, securityCode, token: null };
}

/** §2.2 [MCW-quick], [php-ex] PCI.3DS.php: the payer must be redirected to authenticate (a form auto-POSTed). */
function challengeRedirect(): WsResult {
  return {
    ok: true,
    answer: {
      redirectUrl: `https://api.micuentaweb.pe/api-payment/V4/Charge/Public/Authenticate/Payment/Session/${uuid()}`,
      postData: { MD: uuid(), PaReq: randomBytes(24).toString('base64') },
      httpMethod: 'POST',
      _type: 'V4/Charge/RedirectRequest',
    },
  };
}

function registerToken(state: State, account: Account, card: CardSent): string {
  const token = uuid();
  state.tokens.set(token, {
    shopId: account.shopId,
    pan: card.pan,
    expiryMonth: card.month,
    expiryYear: card.year,
    cancelled: false,
  });
  return token;
}

function findTransaction(state: State, shopId: string, id: unknown): Transaction | null {
  if (typeof id !== 'string') return null;
  const transaction = state.transactions.get(id);
  return transaction && transaction.shopId === shopId ? settle(state, transaction) : null;
}

/** `Charge/CreatePayment` with card data (§2.2): validates as Izipay documents, then the test card decides. */
export function createPayment(state: State, account: Account, body: Record<string, unknown>): WsResult {
  for (const key of Object.keys(body)) {
    if (!CREATE_FIELDS.has(key)) return wsError('INT_900', 'parameter does not exist', `Invalid input value [name=${key}]`);
  }
  const amount = integerAmount(body.amount);
  if (amount === null) return wsError('INT_009', 'invalid amount', 'amount must be an integer in the smallest currency unit');
  if (body.currency !== 'PEN' && body.currency !== 'USD') return wsError('INT_010', 'invalid currency');
  const orderId = body.orderId;
  // "No admite los caracteres UTF-8" (§2.1); the 64-character cap is an assumption (README).
  if (orderId !== undefined && (typeof orderId !== 'string' || !/^[\x20-\x7e]{1,64}$/.test(orderId)))
    return wsError('INT_013', 'invalid orderId');
  const ipnTargetUrl = body.ipnTargetUrl;
  if (ipnTargetUrl !== undefined && (typeof ipnTargetUrl !== 'string' || !/^https?:\/\/\S+$/.test(ipnTargetUrl)))
    return wsError('INT_014', 'invalid ipnTargetUrl');
  const customer = body.customer;
  const email = isObject(customer) ? customer.email : undefined;
  if (email !== undefined && (typeof email !== 'string' || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)))
    return wsError(
      'INT_015',
      'invalid customer email',
      `Invalid input value [name=customer.email, value=${typeof email === 'string' ? email : typeof email}]`,
    );
  const cardOptions = isObject(body.transactionOptions) ? body.transactionOptions.cardOptions : undefined;
  const manualValidation = isObject(cardOptions) ? (cardOptions.manualValidation ?? 'NO') : 'NO';
  if (manualValidation !== 'YES' && manualValidation !== 'NO') return wsError('INT_005', 'invalid parameter manualValidation');
  const formAction = body.formAction ?? 'PAYMENT';
  if (typeof formAction !== 'string' || !FORM_ACTIONS.has(formAction)) return wsError('INT_875', 'invalid formAction');
  const initialIti = isObject(cardOptions) ? cardOptions.initialIssuerTransactionIdentifier : undefined;
  if (initialIti !== undefined && (typeof initialIti !== 'string' || !/^\d{1,40}$/.test(initialIti)))
    return wsError('INT_902', 'web-service input data validation error', 'initialIssuerTransactionIdentifier');
  const card = cardOf(state, account, body, initialIti === undefined);
  if ('ok' in card) return card;
  const { pan } = card;
  const brand = brandOf(pan);
  const month = card.month;
  const year = card.year % 100;
  // An MIT's issuer id is taken as sent: the scheme's id of the card's first approval, wherever
  // it was made, which Izipay documents no check of.
  const outcome = outcomeOf(pan);
  // The payer is not there to pass a challenge: an MIT or a token's payment goes without one.
  if (outcome.kind === 'challenge' && initialIti === undefined && card.token === null) {
    return challengeRedirect();
  }
  const refused = outcome.kind === 'refuse' ? outcome : null;
  const transaction: Transaction = {
    shopId: account.shopId,
    uuid: uuid(),
    orderId: typeof orderId === 'string' ? orderId : null,
    operationType: 'DEBIT',
    amount,
    initialAmount: amount,
    currency: body.currency,
    status: refused ? 'UNPAID' : 'PAID',
    detailedStatus: refused ? 'REFUSED' : manualValidation === 'YES' ? 'AUTHORISED_TO_VALIDATE' : 'AUTHORISED',
    manualValidation,
    remitAt: refused || manualValidation === 'YES' ? null : Date.now() + state.captureDelayMs,
    errorCode: refused?.errorCode ?? null,
    errorMessage: refused?.errorMessage ?? null,
    detailedErrorCode: refused?.detailedErrorCode ?? null,
    detailedErrorMessage: refused?.detailedErrorMessage ?? null,
    authorizationNumber: refused ? null : String(randomInt(100_000, 1_000_000)),
    maskedPan: `${pan.slice(0, 6)}${'X'.repeat(pan.length - 10)}${pan.slice(-4)}`,
    brand,
    expiryMonth: month,
    expiryYear: 2000 + year,
    refundAmount: 0,
    parentTransactionUuid: null,
    ipnTargetUrl: typeof ipnTargetUrl === 'string' ? ipnTargetUrl : null,
    customerEmail: typeof email === 'string' ? email : null,
    metadata: isObject(body.metadata) ? body.metadata : null,
    creationDate: now(),
    paymentMethodToken: card.token ?? (!refused && formAction === 'REGISTER_PAY' ? registerToken(state, account, card) : null),
    paymentMethodSource: card.token ? 'TOKEN' : 'NEW',
    creationContext: 'CHARGE',
    initialIssuerTransactionIdentifier: refused ? null : issuerTransactionIdOf(account.shopId, pan),
  };
  state.transactions.set(transaction.uuid, transaction);
  return { ok: true, answer: renderPayment(state, transaction) };
}

/**
 * `Charge/CreateToken` with the card (V4.1/PCI/Charge/CreateToken [MCW-pci-ch]): a verification
 * for no amount that registers the card (creationContext VERIFICATION, ACCEPTED), refused or
 * sent to a challenge as a payment of the card would be.
 */
export function createToken(state: State, account: Account, body: Record<string, unknown>): WsResult {
  if (body.currency !== 'PEN' && body.currency !== 'USD') return wsError('INT_010', 'invalid currency');
  const card = cardOf(state, account, { ...body, paymentMethodToken: undefined }, true);
  if ('ok' in card) return card;
  const outcome = outcomeOf(card.pan);
  if (outcome.kind === 'challenge') {
    return challengeRedirect();
  }
  const refused = outcome.kind === 'refuse' ? outcome : null;
  const orderId = typeof body.orderId === 'string' ? body.orderId : null;
  const email = isObject(body.customer) && typeof body.customer.email === 'string' ? body.customer.email : null;
  const transaction: Transaction = {
    shopId: account.shopId,
    uuid: uuid(),
    orderId,
    operationType: 'DEBIT',
    amount: 0,
    initialAmount: 0,
    currency: body.currency,
    status: refused ? 'UNPAID' : 'PAID',
    detailedStatus: refused ? 'REFUSED' : 'ACCEPTED',
    manualValidation: 'NO',
    remitAt: null,
    errorCode: refused?.errorCode ?? null,
    errorMessage: refused?.errorMessage ?? null,
    detailedErrorCode: refused?.detailedErrorCode ?? null,
    detailedErrorMessage: refused?.detailedErrorMessage ?? null,
    authorizationNumber: refused ? null : String(randomInt(100_000, 1_000_000)),
    maskedPan: `${card.pan.slice(0, 6)}${'X'.repeat(card.pan.length - 10)}${card.pan.slice(-4)}`,
    brand: brandOf(card.pan),
    expiryMonth: card.month,
    expiryYear: 2000 + card.year,
    refundAmount: 0,
    parentTransactionUuid: null,
    ipnTargetUrl: null,
    customerEmail: email,
    metadata: isObject(body.metadata) ? body.metadata : null,
    creationDate: now(),
    paymentMethodToken: refused ? null : registerToken(state, account, card),
    paymentMethodSource: 'NEW',
    creationContext: 'VERIFICATION',
    initialIssuerTransactionIdentifier: refused ? null : issuerTransactionIdOf(account.shopId, card.pan),
  };
  state.transactions.set(transaction.uuid, transaction);
  return { ok: true, answer: renderPayment(state, transaction) };
}

/** `Token/Cancel {paymentMethodToken}`: answered as recorded (V4/Common/ResponseCodeAnswer); INT_030 when unknown or cancelled. */
export function cancelToken(state: State, account: Account, body: Record<string, unknown>): WsResult {
  const held = typeof body.paymentMethodToken === 'string' ? state.tokens.get(body.paymentMethodToken) : undefined;
  if (!held || held.shopId !== account.shopId || held.cancelled) return wsError('INT_030', 'invalid paymentMethodToken');
  held.cancelled = true;
  return { ok: true, answer: { responseCode: 0, _type: 'V4/Common/ResponseCodeAnswer' } };
}

/** `Transaction/Get {uuid}` (§6.1 [izi-php] TransactionGet.php); PSP_010 when unknown. */
export function getTransaction(state: State, account: Account, body: Record<string, unknown>): WsResult {
  const transaction = findTransaction(state, account.shopId, body.uuid);
  return transaction ? { ok: true, answer: renderTransaction(transaction) } : wsError('PSP_010', 'transaction not found');
}

/** `Order/Get {orderId, operationType?}` → `answer.transactions[]` (§6.1 [mag], [izi-php]). */
export function getOrder(state: State, account: Account, body: Record<string, unknown>): WsResult {
  if (typeof body.orderId !== 'string' || body.orderId === '') return wsError('INT_013', 'invalid orderId');
  const operationType = body.operationType;
  if (operationType !== undefined && operationType !== 'DEBIT' && operationType !== 'CREDIT')
    return wsError('INT_902', 'web-service input data validation error', 'operationType must be DEBIT or CREDIT');
  const transactions = [...state.transactions.values()]
    .filter((each) => each.shopId === account.shopId && each.orderId === body.orderId)
    .filter((each) => operationType === undefined || each.operationType === operationType)
    .map((each) => renderTransaction(settle(state, each)));
  // Assumption (README): an order without transactions answers PSP_010.
  if (transactions.length === 0) return wsError('PSP_010', 'transaction not found');
  return { ok: true, answer: { orderId: body.orderId, transactions, _type: 'V4/OrderTransactions' } };
}

const UPDATABLE = ['AUTHORISED_TO_VALIDATE', 'WAITING_AUTHORISATION_TO_VALIDATE', 'WAITING_AUTHORISATION', 'AUTHORISED'];
const TO_VALIDATE = ['AUTHORISED_TO_VALIDATE', 'WAITING_AUTHORISATION_TO_VALIDATE'];

/** `Transaction/Update {uuid, cardUpdate{amount, currency, manualValidation}}`: amount downward only (§3.1 [LY-update]). */
export function updateTransaction(state: State, account: Account, body: Record<string, unknown>): WsResult {
  const transaction = findTransaction(state, account.shopId, body.uuid);
  if (!transaction || transaction.operationType !== 'DEBIT') return wsError('PSP_010', 'transaction not found');
  if (!UPDATABLE.includes(transaction.detailedStatus)) return wsError('PSP_011', 'incorrect transaction status');
  const update = body.cardUpdate;
  if (!isObject(update)) return wsError('INT_902', 'web-service input data validation error', 'cardUpdate is required');
  if (update.currency !== undefined && update.currency !== transaction.currency)
    return wsError('PSP_545', 'invalid currency for modification');
  if (update.amount !== undefined) {
    const amount = integerAmount(update.amount);
    if (amount === null) return wsError('INT_009', 'invalid amount');
    if (amount > transaction.amount) return wsError('PSP_546', 'amount is greater than authorized');
    transaction.amount = amount;
  }
  if (update.manualValidation !== undefined) {
    // "from manual validation to automatic … but not the other way around" (§3.1).
    if (update.manualValidation === 'NO' && TO_VALIDATE.includes(transaction.detailedStatus)) {
      transaction.manualValidation = 'NO';
      transaction.detailedStatus = 'AUTHORISED';
      transaction.remitAt = Date.now() + state.captureDelayMs;
    } else if (update.manualValidation !== transaction.manualValidation) {
      return wsError('PSP_548', 'invalid modification');
    }
  }
  return { ok: true, answer: renderTransaction(transaction) };
}

/** `Transaction/Validate {uuid}`: only from *_TO_VALIDATE, then remitted like an automatic one (§3.1 [LY-validate]). */
export function validateTransaction(state: State, account: Account, body: Record<string, unknown>): WsResult {
  const transaction = findTransaction(state, account.shopId, body.uuid);
  if (!transaction || transaction.operationType !== 'DEBIT') return wsError('PSP_010', 'transaction not found');
  if (!TO_VALIDATE.includes(transaction.detailedStatus)) return wsError('PSP_011', 'incorrect transaction status');
  transaction.detailedStatus = 'AUTHORISED';
  transaction.remitAt = Date.now() + state.captureDelayMs;
  return { ok: true, answer: renderTransaction(transaction) };
}

function cancel(transaction: Transaction): WsResult {
  transaction.status = 'UNPAID';
  transaction.detailedStatus = 'CANCELLED';
  transaction.remitAt = null;
  return { ok: true, answer: renderTransaction(transaction) };
}

/** `Transaction/Cancel {uuid}`: from the four statuses of §4.1 [LY-cancel]; once remitted, PSP_075. */
export function cancelTransaction(state: State, account: Account, body: Record<string, unknown>): WsResult {
  const transaction = findTransaction(state, account.shopId, body.uuid);
  if (!transaction || transaction.operationType !== 'DEBIT') return wsError('PSP_010', 'transaction not found');
  if (transaction.detailedStatus === 'CAPTURED') return wsError('PSP_075', 'cancellation impossible, please try a refund');
  if (transaction.detailedStatus === 'CANCELLED') return wsError('PSP_105', 'transaction already cancelled');
  if (!UPDATABLE.includes(transaction.detailedStatus)) return wsError('PSP_011', 'incorrect transaction status');
  return cancel(transaction);
}

/**
 * `Transaction/CancelOrRefund {uuid, amount?, currency?, resolutionMode?, comment?}` (§4.1, §5.1):
 * CANCELLATION_ONLY cancels a transaction not remitted (whole only: "La anulación no puede ser
 * parcial", [MCW-anular]); REFUND_ONLY makes a CREDIT transaction of a remitted one, in parts, never
 * past its amount (PSP_510/511); without a mode the status decides.
 */
export function cancelOrRefund(state: State, account: Account, body: Record<string, unknown>): WsResult {
  const transaction = findTransaction(state, account.shopId, body.uuid);
  if (!transaction || transaction.operationType !== 'DEBIT') return wsError('PSP_010', 'transaction not found');
  const mode = body.resolutionMode;
  if (mode !== undefined && mode !== 'CANCELLATION_ONLY' && mode !== 'REFUND_ONLY')
    return wsError('INT_902', 'web-service input data validation error', 'resolutionMode');
  if (body.currency !== undefined && body.currency !== transaction.currency) return wsError('PSP_545', 'invalid currency');
  const amount = body.amount === undefined || body.amount === null ? null : integerAmount(body.amount);
  if (body.amount !== undefined && body.amount !== null && amount === null) return wsError('INT_009', 'invalid amount');
  if (transaction.status === 'UNPAID') {
    if (transaction.detailedStatus === 'CANCELLED') return wsError('PSP_105', 'transaction already cancelled');
    return wsError('PSP_083', 'refund impossible on an unpaid transaction');
  }
  const remitted = transaction.detailedStatus === 'CAPTURED';
  if (mode === 'CANCELLATION_ONLY' || (mode === undefined && !remitted)) {
    if (remitted) return wsError('PSP_075', 'cancellation impossible, please try a refund');
    if (amount !== null && amount !== transaction.amount)
      return wsError('PSP_103', 'amount cannot be defined for a cancellation');
    if (!UPDATABLE.includes(transaction.detailedStatus)) return wsError('PSP_011', 'incorrect transaction status');
    return cancel(transaction);
  }
  if (!remitted) return wsError('PSP_076', 'the refund operation is not yet available, please try to cancel');
  const left = transaction.amount - transaction.refundAmount;
  if (left <= 0) return wsError('PSP_104', 'transaction already refunded');
  const refund = amount ?? left;
  if (refund > transaction.amount) return wsError('PSP_510', 'refund amount greater than the initial amount');
  if (refund > left) return wsError('PSP_511', 'sum of refunds greater than the initial amount');
  transaction.refundAmount += refund;
  const credit: Transaction = {
    ...transaction,
    uuid: uuid(),
    operationType: 'CREDIT',
    amount: refund,
    initialAmount: refund,
    status: 'PAID',
    detailedStatus: 'CAPTURED',
    manualValidation: 'NO',
    remitAt: null,
    errorCode: null,
    errorMessage: null,
    detailedErrorCode: null,
    detailedErrorMessage: null,
    refundAmount: 0,
    parentTransactionUuid: transaction.uuid,
    metadata: null,
    creationDate: now(),
  };
  state.transactions.set(credit.uuid, credit);
  return { ok: true, answer: renderTransaction(credit) };
}
