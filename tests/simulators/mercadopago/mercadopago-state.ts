import type { SimReply } from '../simulator-http';
import { idSequence, type PaymentMethodId, type PaymentStatus, type PaymentTypeId } from './mercadopago-test-data';

// What the simulator remembers, and the shapes of what it answers (research §2.1, §4.1, §7.1).
// Nothing here holds a card number or a security code: a token keeps the first six and last
// four digits, the expiry and the cardholder, which is what Mercado Pago's own answers show.

export type Account = {
  accessToken: string;
  publicKey: string;
  webhookSecret: string | null;
  userId: number;
  /** The application's Webhooks URL set in Your integrations (the control API's `webhooks`), else null. */
  webhookUrl: string | null;
};

export type Identification = { type: string | null; number: string | null };

export type TokenRecord = {
  id: string;
  owner: string;
  kind: 'card' | 'yape';
  /** The payment_method_id values the token may be paid with, the inferred one first. */
  methods: readonly PaymentMethodId[];
  firstSix: string;
  lastFour: string;
  numberLength: number;
  securityCodeLength: number;
  expirationMonth: number;
  expirationYear: number;
  cardholder: { name: string; identification: Identification };
  /** Yape: the payer's phone, which decides the payment as the test phones do. */
  phoneNumber: string | null;
  publicKey: string | null;
  createdAt: number;
  dueAt: number;
  usedAt: number | null;
  /** The saved card a token was made of (POST /v1/card_tokens with `card_id`), else null. */
  cardId: string | null;
};

/** A customer's saved card: what the token it was saved from showed, to make tokens of it again. */
export type SavedCardRecord = Omit<TokenRecord, 'id' | 'usedAt' | 'dueAt' | 'cardId' | 'publicKey' | 'kind' | 'phoneNumber'> & {
  id: string;
  customerId: string;
};

export type CustomerRecord = {
  id: string;
  owner: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  createdAt: number;
  cards: Map<string, SavedCardRecord>;
};

export type MercadoPagoRefund = {
  id: number;
  payment_id: number;
  amount: number;
  metadata: Record<string, unknown>;
  source: { id: string; name: string; type: 'collector' };
  date_created: string;
  unique_sequence_number: null;
  refund_mode: 'standard';
  adjustment_amount: number;
  status: 'approved';
  reason: null;
};

export type MercadoPagoCard = {
  id: null;
  first_six_digits: string;
  last_four_digits: string;
  expiration_month: number;
  expiration_year: number;
  date_created: string;
  date_last_updated: string;
  cardholder: { name: string; identification: Identification };
};

export type MercadoPagoPayer = {
  type: string | null;
  id: string | null;
  email: string | null;
  identification: Identification;
  first_name: string | null;
  last_name: string | null;
  entity_type: string | null;
};

export type MercadoPagoPayment = {
  id: number;
  date_created: string;
  date_approved: string | null;
  date_last_updated: string;
  date_of_expiration: string | null;
  money_release_date: string | null;
  money_release_status: string | null;
  operation_type: 'regular_payment';
  issuer_id: string | null;
  payment_method_id: PaymentMethodId;
  payment_type_id: PaymentTypeId;
  payment_method: { id: PaymentMethodId; type: PaymentTypeId; issuer_id: string | null };
  status: PaymentStatus;
  status_detail: string;
  currency_id: 'PEN';
  description: string | null;
  live_mode: false;
  sponsor_id: null;
  authorization_code: string | null;
  collector_id: number;
  payer: MercadoPagoPayer;
  metadata: Record<string, unknown>;
  additional_info: Record<string, unknown> | null;
  external_reference: string | null;
  transaction_amount: number;
  transaction_amount_refunded: number;
  coupon_amount: number;
  installments: number;
  transaction_details: {
    net_received_amount: number;
    total_paid_amount: number;
    overpaid_amount: number;
    external_resource_url: null;
    installment_amount: number;
    financial_institution: null;
    payment_method_reference_id: null;
  };
  fee_details: never[];
  captured: boolean;
  binary_mode: boolean;
  call_for_authorize_id: null;
  statement_descriptor: string | null;
  three_d_secure_mode: string;
  three_ds_info: null;
  card: MercadoPagoCard;
  notification_url: string | null;
  callback_url: string | null;
  refunds: MercadoPagoRefund[];
  processing_mode: 'aggregator';
  merchant_account_id: null;
  acquirer_reconciliation: never[];
};

export type PaymentRecord = { owner: string; payment: MercadoPagoPayment; createdAt: number; approvedAt: number | null };

export type StoredReply = { fingerprint: string; reply: SimReply; at: number };

export type SimulatorState = {
  /** By access token. */
  accounts: Map<string, Account>;
  accessTokenByPublicKey: Map<string, string>;
  tokens: Map<string, TokenRecord>;
  customers: Map<string, CustomerRecord>;
  payments: Map<number, PaymentRecord>;
  /** By `<access token> <method> <path> <key>`: an idempotency key is the account's, per operation. */
  idempotency: Map<string, StoredReply>;
  nextPaymentId: () => number;
  nextRefundId: () => number;
};

export function createState(): SimulatorState {
  return {
    accounts: new Map(),
    accessTokenByPublicKey: new Map(),
    tokens: new Map(),
    customers: new Map(),
    payments: new Map(),
    idempotency: new Map(),
    nextPaymentId: idSequence(74_581_000_000),
    nextRefundId: idSequence(1_009_000_000),
  };
}

/** Forgets what tests did (tokens, payments, keys) but keeps the accounts, which are configuration. */
export function clearState(state: SimulatorState): void {
  state.tokens.clear();
  state.payments.clear();
  state.idempotency.clear();
}

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON value with its keys sorted: two bodies are "the same request" whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
