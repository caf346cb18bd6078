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

export type MercadoPagoAccountInput = { accessToken: string; publicKey: string; webhookSecret?: string; userId?: number };
export type MercadoPagoAccount = { accessToken: string; publicKey: string; webhookSecret: string | null; userId: number };

export type MercadoPagoSimulator = {
  url: string;
  close(): Promise<void>;
  /** A mode for every account, or (key: its access token or public key) for one. */
  setMode(mode: SimulatorMode, options?: { key?: string; delayMs?: number }): void;
  addAccount(account: MercadoPagoAccountInput): MercadoPagoAccount;
  /** Sends a fresh notification for the payment now; resolves with its attempts. */
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
    // The access token's last part is the seller's user id, as in Mercado Pago's credentials.
    const tail = Number(input.accessToken.split('-').at(-1));
    const account: Account = {
      accessToken: input.accessToken,
      publicKey: input.publicKey,
      webhookSecret: input.webhookSecret ?? null,
      userId: input.userId ?? (Number.isSafeInteger(tail) ? tail : 100_000_000 + randomInt(900_000_000)),
    };
    const previous = state.accounts.get(account.accessToken);
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

  function notify(record: PaymentRecord, action: NotificationAction): void {
    const account = state.accounts.get(record.owner);
    const url = record.payment.notification_url;
    if (!account || url === null) return;
    void notifier.deliver({ url, account, paymentId: record.payment.id, action });
  }

  /**
   * Runs a write under X-Idempotency-Key: the same key with the same body answers the stored
   * first answer (nothing done again); with another body, 409. Only successes are stored, so a
   * request refused for its content can be corrected and sent again under its key.
   */
  function idempotent(
    request: SimRequest,
    account: Account,
    required: boolean,
    action: NotificationAction,
    run: () => PaymentChange,
  ): SimReply {
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
    if (change.changed) notify(change.changed, action);
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
      if (path === '/v1/card_tokens' && method === 'POST')
        return createCardToken(state, caller.account, caller.viaPublicKey, request.json);
      if (segments.length === 3 && method === 'GET' && segments[1] === 'card_tokens')
        return getCardToken(state, caller.account, segments[2]!);
      if (path === '/platforms/pci/yape/v1/payment' && method === 'POST')
        return createYapeToken(state, caller.account, request.json);
      if (path === '/v1/payment_methods' && method === 'GET') return { status: 200, body: paymentMethodsCatalogue() };
      return routeNotFound();
    }

    if (segments[0] !== 'v1' || segments[1] !== 'payments') return routeNotFound();
    const caller = authenticate(request, false);
    if ('status' in caller) return caller;
    const { account } = caller;
    const [, , id, sub, refundId] = segments;

    if (id === undefined && method === 'POST') {
      return idempotent(request, account, true, 'payment.created', () => createPayment(state, account, request.json));
    }
    if (id === 'search' && sub === undefined && method === 'GET') return searchPayments(state, account, request.query);
    if (id === undefined) return routeNotFound();
    if (sub === undefined) {
      if (method === 'GET') return getPayment(state, account, id);
      // The SDK sends a key on PUT too; it is honoured when present, not required.
      if (method === 'PUT')
        return idempotent(request, account, false, 'payment.updated', () => updatePayment(state, account, id, request.json));
      return routeNotFound();
    }
    if (sub !== 'refunds' || segments.length > 5) return routeNotFound();
    if (refundId !== undefined) return method === 'GET' ? getRefund(state, account, id, refundId) : routeNotFound();
    if (method === 'GET') return listRefunds(state, account, id);
    if (method === 'POST')
      return idempotent(request, account, true, 'payment.updated', () =>
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
    const url = record.payment.notification_url;
    if (!account || url === null) throw new Error(`payment ${String(id)} has no notification_url`);
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
        });
        return {
          status: 201,
          body: {
            access_token: account.accessToken,
            public_key: account.publicKey,
            user_id: account.userId,
            has_webhook_secret: account.webhookSecret !== null,
          },
        };
      } catch (error) {
        return { status: 400, body: { error: error instanceof Error ? error.message : 'invalid account' } };
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
      if (record.payment.notification_url === null)
        return { status: 409, body: { error: 'the payment has no notification_url' } };
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
    notifyPayment,
    resendNotification: (notificationId) => notifier.resend(notificationId),
    payments,
    notifications: () => notifier.log(),
    requests: core.requests,
  };
}
