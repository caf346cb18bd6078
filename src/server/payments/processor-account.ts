import type { PaymentMethod } from '@/server/core/domain/states';

// A merchant's own account at a processor (docs/processors/README.md), as its connector needs it:
// the keys opened from their seal, where the processor's API is, and where the processor's
// notifications about this account reach the service.

export const PROCESSORS = ['culqi', 'mercadopago', 'niubiz', 'izipay'] as const;
export type Processor = (typeof PROCESSORS)[number];

export type ProcessorAccountConfig = {
  accountId: string;
  /** How routes and records name this account's connector (`culqi-3f9a2c1d`). */
  connectorId: string;
  name: string;
  processor: Processor;
  environment: 'test' | 'live';
  /** The methods the merchant carries through this account. */
  methods: readonly PaymentMethod[];
  /**
   * Culqi's public key; Mercado Pago's public key; Niubiz's merchant code (`merchantId`, up to
   * nine digits); Izipay's shop id (eight digits, the user of its REST API).
   */
  publicKey: string;
  /** Culqi's secret key; Mercado Pago's access token; Niubiz's API password; Izipay's REST password. */
  secretKey: string;
  /** Niubiz's API user (the email its security API takes with the password); null for the others. */
  apiUser: string | null;
  /** The merchant's RUC (11 digits), which Niubiz's refunds carry; null when not given. */
  taxId: string | null;
  /**
   * What proves a notification is the processor's: Culqi's HTTP Basic credentials (the user name
   * and password the merchant set on the webhook in CulqiPanel), Mercado Pago's webhook secret.
   * Izipay signs its IPN with the REST password (`secretKey`); Niubiz signs nothing (its
   * notifications are verified by asking Niubiz).
   */
  webhook: { username: string | null; secret: string | null };
  /** Where the processor's notifications about this account reach the service. */
  notificationUrl: string;
};

/** Sent where a payer gave no email: Culqi and Mercado Pago require one on every payment. */
export const PAYER_WITHOUT_EMAIL = 'sin-correo@pagos.pe';

/** Where each processor's API is (configuration: the real hosts, or a simulator's in tests). */
export type ProcessorEndpoints = {
  culqiApi: string;
  culqiSecure: string;
  mercadoPagoApi: string;
  /** Niubiz has one host per environment (apitestenv.vnforapps.com, apiprod.vnforapps.com). */
  niubizApi: { test: string; live: string };
  /** Izipay's REST API V4 host (api.micuentaweb.pe), the same for test and live: the password says which. */
  izipayApi: string;
  timeoutMs: number;
};

/** A connection test's verdict, in words for the console. */
export type AccountCheck = { ok: boolean; message: string };
