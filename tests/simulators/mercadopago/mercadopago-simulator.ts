import { createCustomer, deleteCard, saveCard, savedCardToken, searchCustomers } from './mercadopago-customers';
import { randomInt } from 'node:crypto';
import { startSimulator, type RecordedRequest, type SimReply, type SimRequest, type SimulatorMode } from '../simulator-http';
import {
  faultReply,
  idempotencyConflict,
  invalidToken,
  missingIdempotencyKey,
  missingToken,
  paymentNotFound,
  publicKeyNotFound,
  routeNotFound,
} from './mercadopago-errors';
import { createNotifier, type NotificationAction, type NotificationDelivery } from './mercadopago-notifications';
import { createPayment, getPayment, renderPayment, updatePayment, type PaymentChange } from './mercadopago-payments';
import { createRefund, getRefund, listRefunds } from './mercadopago-refunds';
import { searchPayments } from './mercadopago-search';
import {
  canonicalJson,
  clearState,
  createState,
  isObject,
  type Account,
  type MercadoPagoPayment,
  type PaymentRecord,
} from './mercadopago-state';
import { paymentMethodsCatalogue } from './mercadopago-test-data';
import { createCardToken, createYapeToken, getCardToken } from './mercadopago-tokens';

// A local Mercado Pago (Checkout API, Payments API /v1/payments, Peru) for the connector's
// tests: the same paths and bodies as api.mercadopago.com, on a loopback origin. What each
// behaviour follows is in README.md next to this file.

export type { MercadoPagoPayment, MercadoPagoRefund } from './mercadopago-state';
export type { NotificationAction, NotificationDelivery } from './mercadopago-notifications';

export type MercadoPagoAccountInput = {
  accessToken: string;
  publicKey: string;
  webhookSecret?: string;
  userId?: number;
  /** The application's Webhooks URL (Your integrations); kept from an earlier upsert when absent. */
  webhookUrl?: string | null;
};
export type MercadoPagoAccount = {
  accessToken: string;
  publicKey: string;
  webhookSecret: string | null;
  userId: number;
  webhookUrl: string | null;
};

export type MercadoPagoSimulator = {
  url: string;
  close(): Promise<void>;
  /** A mode for every account, or (key: its access token or public key) for one. */
  setMode(mode: SimulatorMode, options?: { key?: string; delayMs?: number }): void;
  addAccount(account: MercadoPagoAccountInput): MercadoPagoAccount;
  /**
   * The application's Webhooks URL as set in Your integrations > Webhooks (key: the account's
   * access token or public key; null clears it). A local http URL is taken: the control API's
   * allowance for a test's receiver, not the API's (`notification_url` must be https).
   */
  setWebhook(key: string, url: string | null): MercadoPagoAccount;
  /**
   * The panel's "Simular": sends a notification for the payment now, to its `notification_url`
   * or else to the application's Webhooks URL; resolves with its attempts.
   */
  notifyPayment(id: number | string, action?: NotificationAction): Promise<NotificationDelivery[]>;
  /** Replays a notification's last request byte for byte (same x-request-id and x-signature). */
  resendNotification(notificationId: number): Promise<NotificationDelivery | null>;
  /** Every stored payment as GET answers it (first six and last four digits only). */
  payments(): MercadoPagoPayment[];
  notifications(): NotificationDelivery[];
  requests: RecordedRequest[];
};

/** `APP_USR-<client id>-<6 digits>-<32 hex>-<user id>`; `TEST-` is the legacy test prefix. */
export const ACCESS_TOKEN_PATTERN = /^(APP_USR|TEST)-\d{6,}-\d{6}-[0-9a-f]{32}-\d{6,}$/;
export const PUBLIC_KEY_PATTERN = /^(APP_USR|TEST)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The panel's Webhooks URL as the control API takes it: any http(s) URL, since a test's receiver
 * is a local http server. Mercado Pago's panel asks for an https URL; this allowance is the
 * control API's, not the API's (POST /v1/payments refuses such a `notification_url`).
 */
function webhookUrlOf(url: string | null): string | null {
  if (url === null) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('webhook url must be an http(s) URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error('webhook url must be an http(s) URL');
  return url;
}

/** "already been used … within the last 24 hours" (Orders API): how long a key is remembered. */
const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

export async function startMercadoPagoSimulator(options: { port?: number } = {}): Promise<MercadoPagoSimulator> {
  const state = createState();
  const notifier = createNotifier();

  function addAccount(input: MercadoPagoAccountInput): MercadoPagoAccount {
    if (!ACCESS_TOKEN_PATTERN.test(input.accessToken))
      throw new Error('access_token must look like APP_USR-<digits>-<6 digits>-<32 hex>-<digits>');
    if (!PUBLIC_KEY_PATTERN.test(input.publicKey)) throw new Error('public_key must look like APP_USR-<uuid>');
    if (input.userId !== undefined && (!Number.isSafeInteger(input.userId) || input.userId <= 0))
      throw new Error('user_id must be a positive integer');
    const webhookUrl = input.webhookUrl === undefined ? undefined : webhookUrlOf(input.webhookUrl);
    // The access token's last part is the seller's user id, as in Mercado Pago's credentials.
    const tail = Number(input.accessToken.split('-').at(-1));
    const previous = state.accounts.get(input.accessToken);
    const account: Account = {
      accessToken: input.accessToken,
      publicKey: input.publicKey,
      webhookSecret: input.webhookSecret ?? null,
      userId: input.userId ?? (Number.isSafeInteger(tail) ? tail : 100_000_000 + randomInt(900_000_000)),
      webhookUrl: webhookUrl === undefined ? (previous?.webhookUrl ?? null) : webhookUrl,
    };
    if (previous) state.accessTokenByPublicKey.delete(previous.publicKey);
    state.accounts.set(account.accessToken, account);
    state.accessTokenByPublicKey.set(account.publicKey, account.accessToken);
    return { ...account };
  }

  /** The access token a request carries (header, or the legacy `access_token` query), else null. */
  function bearerOf(request: SimRequest): string | null {
    const header = request.headers.authorization;
    if (typeof header === 'string') return /^Bearer\s+(\S+)$/i.exec(header.trim())?.[1] ?? header;
    return request.query.get('access_token');
  }

  /** The caller's account: by access token, or by public key where MercadoPago.js uses one. */
  function authenticate(request: SimRequest, publicKeyAllowed: boolean): { account: Account; viaPublicKey: boolean } | SimReply {
    const bearer = bearerOf(request);
    if (bearer !== null) {
      const account = state.accounts.get(bearer);
      return account ? { account, viaPublicKey: false } : invalidToken();
    }
    const publicKey = request.query.get('public_key');
    if (publicKeyAllowed && publicKey !== null) {
      const accessToken = state.accessTokenByPublicKey.get(publicKey);
      const account = accessToken === undefined ? undefined : state.accounts.get(accessToken);
      return account ? { account, viaPublicKey: true } : publicKeyNotFound();
    }
    return missingToken();
  }

  function setWebhook(key: string, url: string | null): MercadoPagoAccount {
    const account = state.accounts.get(state.accessTokenByPublicKey.get(key) ?? key);
    if (!account) throw new Error('unknown account: give its access_token or public_key');
    account.webhookUrl = webhookUrlOf(url);
    return { ...account };
  }

  /** Where a payment's notifications go: its own notification_url first, as the Webhooks page says, else the panel's URL. */
  function notificationUrlOf(record: PaymentRecord): string | null {
    return record.payment.notification_url ?? state.accounts.get(record.owner)?.webhookUrl ?? null;
  }

  /**
   * Runs a write under X-Idempotency-Key: the same key with the same body answers the stored
   * first answer (nothing done again); with another body, 409. Only successes are stored, so a
   * request refused for its content can be corrected and sent again under its key.
   *
   * No notification follows: every account here is a test account, and "Test payments, created
   * with test credentials, will not send notifications. The only way to test notification
   * reception is through the Configuration through Your integrations" (Webhooks page, research
   * §8.1), whose "Simular" is the control API's `notify`.
   */
  function idempotent(request: SimRequest, account: Account, required: boolean, run: () => PaymentChange): SimReply {
    const header = request.headers['x-idempotency-key'];
    const key = typeof header === 'string' && header.trim() !== '' ? header : null;
    if (key === null && required) return missingIdempotencyKey();
    const slot = `${account.accessToken} ${request.method} ${request.path} ${key ?? ''}`;
    const fingerprint = canonicalJson(request.body.trim() === '' ? {} : (request.json ?? request.body));
    const now = Date.now();
    const stored = key === null ? undefined : state.idempotency.get(slot);
    if (stored && now - stored.at < IDEMPOTENCY_TTL_MS) {
      return stored.fingerprint === fingerprint ? structuredClone(stored.reply) : idempotencyConflict();
    }
    const change = run();
    if (key !== null && change.reply.status < 300) {
      state.idempotency.set(slot, { fingerprint, reply: structuredClone(change.reply), at: now });
    }
    return change.reply;
  }

  async function handle(request: SimRequest): Promise<SimReply> {
    const { method, path } = request;
    const segments = path.split('/').filter((segment) => segment !== '');

    if (
      path === '/v1/card_tokens' ||
      path.startsWith('/v1/card_tokens/') ||
      path === '/platforms/pci/yape/v1/payment' ||
      path === '/v1/payment_methods'
    ) {
      const caller = authenticate(request, true);
      if ('status' in caller) return caller;
      // A saved card's token (its id and security code) or a card's.
      const json: unknown = request.json;
      if (
        path === '/v1/card_tokens' &&
        method === 'POST' &&
        isObject(json) &&
        json.card_id !== undefined &&
        json.card_number === undefined
      )
        return savedCardToken(state, caller.account, json);
      if (path === '/v1/card_tokens' && method === 'POST')
        return createCardToken(state, caller.account, caller.viaPublicKey, request.json);
      if (segments.length === 3 && method === 'GET' && segments[1] === 'card_tokens')
        return getCardToken(state, caller.account, segments[2]!);
      if (path === '/platforms/pci/yape/v1/payment' && method === 'POST')
        return createYapeToken(state, caller.account, request.json);
      if (path === '/v1/payment_methods' && method === 'GET') return { status: 200, body: paymentMethodsCatalogue() };
      return routeNotFound();
    }

    if (segments[0] === 'v1' && segments[1] === 'customers') {
      const caller = authenticate(request, false);
      if ('status' in caller) return caller;
      const [, , customerId, sub, cardId] = segments;
      if (customerId === undefined && method === 'POST') return createCustomer(state, caller.account, request.json);
      if (customerId === 'search' && method === 'GET') return searchCustomers(state, caller.account, request.query);
      if (customerId !== undefined && sub === 'cards' && cardId === undefined && method === 'POST')
        return saveCard(state, caller.account, customerId, request.json);
      if (customerId !== undefined && sub === 'cards' && cardId !== undefined && method === 'DELETE')
        return deleteCard(state, caller.account, customerId, cardId);
      return routeNotFound();
    }
    if (segments[0] !== 'v1' || segments[1] !== 'payments') return routeNotFound();
    const caller = authenticate(request, false);
    if ('status' in caller) return caller;
    const { account } = caller;
    const [, , id, sub, refundId] = segments;

    if (id === undefined && method === 'POST') {
      return idempotent(request, account, true, () => createPayment(state, account, request.json));
    }
    if (id === 'search' && sub === undefined && method === 'GET') return searchPayments(state, account, request.query);
    if (id === undefined) return routeNotFound();
    if (sub === undefined) {
      if (method === 'GET') return getPayment(state, account, id);
      // The SDK sends a key on PUT too; it is honoured when present, not required.
      if (method === 'PUT') return idempotent(request, account, false, () => updatePayment(state, account, id, request.json));
      return routeNotFound();
    }
    if (sub !== 'refunds' || segments.length > 5) return routeNotFound();
    if (refundId !== undefined) return method === 'GET' ? getRefund(state, account, id, refundId) : routeNotFound();
    if (method === 'GET') return listRefunds(state, account, id);
    if (method === 'POST')
      return idempotent(request, account, true, () =>
        createRefund(state, account, id, request.body.trim() === '' ? {} : request.json),
      );
    return routeNotFound();
  }

  function paymentById(id: string): PaymentRecord | null {
    return /^\d{1,19}$/.test(id) ? (state.payments.get(Number(id)) ?? null) : null;
  }

  async function notifyPayment(
    id: number | string,
    action: NotificationAction = 'payment.updated',
  ): Promise<NotificationDelivery[]> {
    const record = paymentById(String(id));
    if (!record) throw new Error(`unknown payment ${String(id)}`);
    const account = state.accounts.get(record.owner);
    const url = notificationUrlOf(record);
    if (!account || url === null)
      throw new Error(`payment ${String(id)} has no notification_url and its application no Webhooks URL`);
    return notifier.deliver({ url, account, paymentId: record.payment.id, action });
  }

  const payments = () => [...state.payments.values()].map((record) => renderPayment(record));

  async function control(request: SimRequest): Promise<SimReply | null> {
    const action = request.path.slice('/__simulator/'.length);
    const body = isObject(request.json) ? request.json : {};
    if (request.method === 'POST' && action === 'accounts') {
      try {
        const account = addAccount({
          accessToken: typeof body.access_token === 'string' ? body.access_token : '',
          publicKey: typeof body.public_key === 'string' ? body.public_key : '',
          ...(typeof body.webhook_secret === 'string' ? { webhookSecret: body.webhook_secret } : {}),
          ...(typeof body.user_id === 'number' ? { userId: body.user_id } : {}),
          ...(typeof body.webhook_url === 'string' || body.webhook_url === null ? { webhookUrl: body.webhook_url } : {}),
        });
        return {
          status: 201,
          body: {
            access_token: account.accessToken,
            public_key: account.publicKey,
            user_id: account.userId,
            has_webhook_secret: account.webhookSecret !== null,
            webhook_url: account.webhookUrl,
          },
        };
      } catch (error) {
        return { status: 400, body: { error: error instanceof Error ? error.message : 'invalid account' } };
      }
    }
    if (request.method === 'POST' && action === 'webhooks') {
      const key = typeof body.access_token === 'string' ? body.access_token : typeof body.key === 'string' ? body.key : '';
      if (body.url !== null && typeof body.url !== 'string')
        return { status: 400, body: { error: 'url must be a string or null' } };
      try {
        const account = setWebhook(key, body.url);
        return { status: 200, body: { access_token: account.accessToken, user_id: account.userId, url: account.webhookUrl } };
      } catch (error) {
        const message = error instanceof Error ? error.message : 'invalid webhook';
        return { status: message.startsWith('unknown account') ? 404 : 400, body: { error: message } };
      }
    }
    if (request.method === 'GET' && action === 'notifications') return { status: 200, body: notifier.log() };
    if (request.method === 'GET' && action === 'payments') return { status: 200, body: payments() };
    const notify = /^payments\/(\d+)\/notify$/.exec(action);
    if (request.method === 'POST' && notify) {
      const record = paymentById(notify[1]!);
      if (!record) return paymentNotFound();
      const wanted = body.action ?? 'payment.updated';
      if (wanted !== 'payment.updated' && wanted !== 'payment.created') {
        return { status: 400, body: { error: 'action must be payment.created or payment.updated' } };
      }
      if (notificationUrlOf(record) === null)
        return { status: 409, body: { error: 'the payment has no notification_url and its application no Webhooks URL' } };
      const deliveries = await notifyPayment(record.payment.id, wanted);
      return { status: 200, body: { notification_id: deliveries[0]?.notification_id ?? null, deliveries } };
    }
    const resend = /^notifications\/(\d+)\/resend$/.exec(action);
    if (request.method === 'POST' && resend) {
      const delivery = await notifier.resend(Number(resend[1]));
      return delivery ? { status: 200, body: delivery } : { status: 404, body: { error: 'unknown notification' } };
    }
    return null;
  }

  const core = await startSimulator(
    {
      credentialOf(request) {
        const bearer = bearerOf(request);
        if (bearer !== null) return bearer;
        const publicKey = request.query.get('public_key');
        return publicKey === null ? null : (state.accessTokenByPublicKey.get(publicKey) ?? publicKey);
      },
      // A mode set for the public key holds for the account, whose requests resolve to the access token.
      modeKeyOf: (credential) => state.accessTokenByPublicKey.get(credential) ?? credential,
      handle,
      faultReply,
      control,
      reset() {
        clearState(state);
        notifier.reset();
      },
    },
    options,
  );

  return {
    url: core.url,
    async close() {
      notifier.reset();
      await core.close();
    },
    setMode: (mode, modeOptions) => core.setMode(mode, modeOptions),
    addAccount,
    setWebhook,
    notifyPayment,
    resendNotification: (notificationId) => notifier.resend(notificationId),
    payments,
    notifications: () => notifier.log(),
    requests: core.requests,
  };
}
