import { startSimulator, type RecordedRequest, type SimReply, type SimRequest, type SimulatorMode } from '../simulator-http';
import {
  copy,
  CulqiReplyError,
  digits,
  emptyState,
  errorReply,
  INVALID_JSON,
  type Body,
  type CulqiAccount,
  type CulqiCard,
  type CulqiCharge,
  type CulqiContext,
  type CulqiDelivery,
  type CulqiOrder,
  type CulqiWebhook,
} from './culqi-objects';
import {
  changeOrderState,
  confirmOrder,
  confirmOrderByType,
  createOrder,
  cuotealoPage,
  deleteOrder,
  expireDueOrders,
  getEvent,
  getOrder,
  resendEvent,
  type EventOutcome,
} from './culqi-orders';
import {
  captureCharge,
  createCardToken,
  createCharge,
  createRefund,
  createYapeToken,
  getCharge,
  getRefund,
  listCharges,
  listRefunds,
  sweepTokens,
} from './culqi-payments';
import { cardsOf, createCard, createCustomer, deleteCard, getCard } from './culqi-cards';

// A local Culqi API v2 (tests/simulators/culqi/README.md): one server for both of Culqi's hosts
// (api.culqi.com and secure.culqi.com), accounts registered through the control API, the
// documented bodies of research/culqi.md, and the order webhooks a test can drive.

export type {
  CulqiAccount,
  CulqiCharge,
  CulqiDelivery,
  CulqiEvent,
  CulqiOrder,
  CulqiRefund,
  CulqiToken,
  CulqiWebhook,
} from './culqi-objects';
export type { EventOutcome } from './culqi-orders';

export type CulqiSimulatorOptions = {
  port?: number;
  /** secure.culqi.com's listener (0 or none: any free port). */
  securePort?: number;
  /** How long a token can be used (Culqi: 5 minutes); shorter in tests of expiry. */
  tokenTtlMs?: number;
  /** The pause between webhook attempts (1 s by default). */
  webhookRetryDelayMs?: number;
};

export type CulqiAccountInput = { publicKey: string; secretKey: string; webhook?: CulqiWebhook };

export type CulqiSimulator = {
  /** api.culqi.com's stand-in (and the control API's). */
  url: string;
  /** secure.culqi.com's stand-in: token creation only. */
  secureUrl: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
  setMode(mode: SimulatorMode, options?: { key?: string; delayMs?: number }): void;
  addAccount(account: CulqiAccountInput): void;
  /** Pays a pending order and posts its event; resolves after the first delivery attempt. */
  payOrder(id: string): Promise<EventOutcome>;
  expireOrder(id: string): Promise<EventOutcome>;
  resendEvent(id: string): Promise<EventOutcome>;
  charges(): CulqiCharge[];
  /** The saved cards the simulator holds (never their numbers). */
  cards(): CulqiCard[];
  orders(): CulqiOrder[];
  deliveries(): CulqiDelivery[];
};

/** A control-API refusal: the HTTP status it answers and why. */
export class CulqiControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

type KeyKind = 'public' | 'secret';
type Route = {
  method: string;
  path: RegExp;
  key: KeyKind;
  /**
   * The hosts that answer it: secure.culqi.com creates tokens only; api.culqi.com everything
   * (token creation too, as Culqi's older docs post there: research §1.1).
   */
  secure?: true;
  /** POSTs whose body may be empty (capture, confirm): Culqi's libraries send none. */
  emptyBody?: true;
  run(ctx: CulqiContext, account: CulqiAccount, id: string, body: Body, request: SimRequest): SimReply | Promise<SimReply>;
};

const ID = '([A-Za-z0-9_]+)';
const path = (pattern: string) => new RegExp(`^/v2/${pattern}$`);

const ROUTES: Route[] = [
  {
    method: 'POST',
    path: path('tokens'),
    key: 'public',
    secure: true,
    run: (ctx, a, _id, body, request) => createCardToken(ctx, a, body, request),
  },
  {
    method: 'POST',
    path: path('tokens/yape'),
    key: 'public',
    secure: true,
    run: (ctx, a, _id, body) => createYapeToken(ctx, a, body),
  },
  { method: 'POST', path: path('customers'), key: 'secret', run: (ctx, a, _id, body) => createCustomer(ctx, a, body) },
  { method: 'POST', path: path('cards'), key: 'secret', run: (ctx, a, _id, body) => createCard(ctx, a, body) },
  { method: 'GET', path: path(`cards/${ID}`), key: 'secret', run: (ctx, a, id) => getCard(ctx, a, id) },
  { method: 'DELETE', path: path(`cards/${ID}`), key: 'secret', run: (ctx, a, id) => deleteCard(ctx, a, id) },
  { method: 'POST', path: path('charges'), key: 'secret', run: (ctx, a, _id, body) => createCharge(ctx, a, body) },
  {
    method: 'GET',
    path: path('charges'),
    key: 'secret',
    run: (ctx, a, _id, _body, request) => listCharges(ctx, a, request.query),
  },
  { method: 'GET', path: path(`charges/${ID}`), key: 'secret', run: (ctx, a, id) => getCharge(ctx, a, id) },
  {
    method: 'POST',
    path: path(`charges/${ID}/capture`),
    key: 'secret',
    emptyBody: true,
    run: (ctx, a, id) => captureCharge(ctx, a, id),
  },
  { method: 'POST', path: path('refunds'), key: 'secret', run: (ctx, a, _id, body) => createRefund(ctx, a, body) },
  {
    method: 'GET',
    path: path('refunds'),
    key: 'secret',
    run: (ctx, a, _id, _body, request) => listRefunds(ctx, a, request.query),
  },
  { method: 'GET', path: path(`refunds/${ID}`), key: 'secret', run: (ctx, a, id) => getRefund(ctx, a, id) },
  { method: 'POST', path: path('orders/confirm'), key: 'public', run: (ctx, a, _id, body) => confirmOrderByType(ctx, a, body) },
  { method: 'POST', path: path('orders'), key: 'secret', run: (ctx, a, _id, body) => createOrder(ctx, a, body) },
  {
    method: 'POST',
    path: path(`orders/${ID}/confirm`),
    key: 'public',
    emptyBody: true,
    run: (ctx, a, id) => confirmOrder(ctx, a, id),
  },
  { method: 'GET', path: path(`orders/${ID}`), key: 'secret', run: (ctx, a, id) => getOrder(ctx, a, id) },
  { method: 'DELETE', path: path(`orders/${ID}`), key: 'secret', run: (ctx, a, id) => deleteOrder(ctx, a, id) },
  { method: 'GET', path: path(`events/${ID}`), key: 'secret', run: (ctx, a, id) => getEvent(ctx, a, id) },
];

const PUBLIC_KEY = /^pk_(test|live)_[A-Za-z0-9]{16,}$/;
const SECRET_KEY = /^sk_(test|live)_[A-Za-z0-9]{16,}$/;

function bearer(request: SimRequest): string | null {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header.trim()) : null;
  return match?.[1] ?? null;
}

const authError = (message: string) => errorReply('authentication_error', message, { code: 'invalid_key' });

/** The request's body as Culqi reads it: a JSON object, or nothing where the operation takes none. */
function bodyOf(request: SimRequest, route: Route): Body | null {
  if (route.method !== 'POST') return {};
  if (request.body.trim() === '') return route.emptyBody ? {} : null;
  const json = request.json;
  return json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as Body) : null;
}

function webhookOf(value: unknown): CulqiWebhook | null {
  if (value === undefined || value === null) return null;
  const webhook = value as Partial<Record<keyof CulqiWebhook, unknown>>;
  if (typeof webhook.url !== 'string' || !/^https?:\/\//.test(webhook.url) || !URL.canParse(webhook.url)) {
    throw new CulqiControlError(400, 'webhook.url must be an http(s) URL');
  }
  for (const field of ['username', 'password'] as const) {
    if (webhook[field] !== undefined && typeof webhook[field] !== 'string') {
      throw new CulqiControlError(400, `webhook.${field} must be a string`);
    }
  }
  if (webhook.password !== undefined && webhook.username === undefined) {
    throw new CulqiControlError(400, 'webhook.password needs webhook.username');
  }
  return {
    url: webhook.url,
    ...(typeof webhook.username === 'string' ? { username: webhook.username } : {}),
    ...(typeof webhook.password === 'string' ? { password: webhook.password } : {}),
  };
}

export async function startCulqiSimulator(options: CulqiSimulatorOptions = {}): Promise<CulqiSimulator> {
  const ctx: CulqiContext = {
    state: emptyState(),
    origin: '',
    tokenTtlMs: options.tokenTtlMs ?? 5 * 60_000,
    retryDelayMs: options.webhookRetryDelayMs ?? 1000,
  };

  const forget = () => {
    for (const timer of ctx.state.timers) clearTimeout(timer);
    ctx.state = emptyState();
  };

  const accountOf = (key: string | null): CulqiAccount | null => {
    if (key === null) return null;
    const secretKey = ctx.state.publicKeys.get(key) ?? key;
    return ctx.state.accounts.get(secretKey) ?? null;
  };

  const addAccount = ({ publicKey, secretKey, webhook }: CulqiAccountInput): CulqiAccount => {
    const publicMatch = PUBLIC_KEY.exec(publicKey);
    const secretMatch = SECRET_KEY.exec(secretKey);
    if (!publicMatch) throw new CulqiControlError(400, 'public_key must match pk_(test|live)_ and 16 or more letters or digits');
    if (!secretMatch) throw new CulqiControlError(400, 'secret_key must match sk_(test|live)_ and 16 or more letters or digits');
    if (publicMatch[1] !== secretMatch[1])
      throw new CulqiControlError(400, 'public_key and secret_key must be of the same environment');
    const owner = ctx.state.publicKeys.get(publicKey);
    if (owner !== undefined && owner !== secretKey) throw new CulqiControlError(409, 'public_key belongs to another account');
    const hook = webhookOf(webhook);
    const previous = ctx.state.accounts.get(secretKey);
    if (previous) ctx.state.publicKeys.delete(previous.publicKey);
    const account: CulqiAccount = {
      publicKey,
      secretKey,
      environment: publicMatch[1] as CulqiAccount['environment'],
      webhook: hook,
    };
    ctx.state.accounts.set(secretKey, account);
    ctx.state.publicKeys.set(publicKey, secretKey);
    return account;
  };

  const moveOrder = async (id: string, target: 'paid' | 'expired'): Promise<EventOutcome> => {
    const record = ctx.state.orders.get(id);
    if (!record) throw new CulqiControlError(404, `unknown order ${id}`);
    const allowed = target === 'paid' ? ['pending'] : ['created', 'pending'];
    if (!allowed.includes(record.value.state)) {
      throw new CulqiControlError(
        409,
        `order ${id} is ${record.value.state}; it can be ${target} only from ${allowed.join(' or ')}`,
      );
    }
    return changeOrderState(ctx, record, target);
  };

  const resend = async (id: string): Promise<EventOutcome> => {
    const outcome = await resendEvent(ctx, id);
    if (!outcome) throw new CulqiControlError(404, `unknown event ${id}`);
    return outcome;
  };

  async function handle(request: SimRequest): Promise<SimReply | null> {
    const cuotealo = /^\/cuotealo\/([A-Za-z0-9_]+)$/.exec(request.path);
    if (cuotealo && (request.method === 'GET' || request.method === 'POST'))
      return cuotealoPage(ctx, request.method, cuotealo[1]!);
    if (!request.path.startsWith('/v2/')) return null;
    const key = bearer(request);
    const account = accountOf(key);
    if (!account || key === null) {
      return authError('Llave proporcionada inválida. Revisa tus llaves correctas en tu panel Culqi (http://culqi.com).');
    }
    const headers = {
      'x-culqi-environment': account.environment,
      'x-culqi-tracking-id': digits(9),
      'x-culqi-version': '2.0.0',
    };
    let route: Route | undefined;
    let id = '';
    for (const candidate of ROUTES) {
      const served = request.host === 'api' || candidate.secure === true;
      const found = served && candidate.method === request.method ? candidate.path.exec(request.path) : null;
      if (found) {
        route = candidate;
        id = found[1] ?? '';
        break;
      }
    }
    if (!route) {
      return { ...errorReply('resource_error', `No existe el recurso ${request.method} ${request.path}.`), headers };
    }
    const kind: KeyKind = key.startsWith('pk_') ? 'public' : 'secret';
    if (kind !== route.key) {
      return authError(
        route.key === 'secret'
          ? 'Esta operación requiere la llave secreta (sk_) de tu comercio, no la llave pública.'
          : 'Esta operación requiere la llave pública (pk_) de tu comercio.',
      );
    }
    const body = bodyOf(request, route);
    if (!body) return { ...errorReply('invalid_request_error', INVALID_JSON), headers };
    let reply: SimReply;
    try {
      reply = await route.run(ctx, account, id, body, request);
    } catch (error) {
      if (!(error instanceof CulqiReplyError)) throw error;
      reply = error.reply;
    }
    // Token creation (secure.culqi.com) answered without Culqi's headers in the recordings.
    return request.path.startsWith('/v2/tokens') ? reply : { ...reply, headers };
  }

  async function control(request: SimRequest): Promise<SimReply | null> {
    const action = request.path.slice('/__simulator/'.length);
    const body = (request.json ?? {}) as Record<string, unknown>;
    try {
      if (request.method === 'POST' && action === 'accounts') {
        const account = addAccount({
          publicKey: typeof body.public_key === 'string' ? body.public_key : '',
          secretKey: typeof body.secret_key === 'string' ? body.secret_key : '',
          ...(body.webhook !== undefined && body.webhook !== null ? { webhook: body.webhook as CulqiWebhook } : {}),
        });
        const { webhook } = account;
        return {
          status: 201,
          body: {
            public_key: account.publicKey,
            secret_key: account.secretKey,
            environment: account.environment,
            webhook: webhook ? { url: webhook.url, username: webhook.username ?? null } : null,
          },
        };
      }
      const order = /^orders\/([A-Za-z0-9_]+)\/(pay|expire)$/.exec(action);
      if (request.method === 'POST' && order) {
        return { status: 200, body: await moveOrder(order[1]!, order[2] === 'pay' ? 'paid' : 'expired') };
      }
      const event = /^events\/([A-Za-z0-9_]+)\/resend$/.exec(action);
      if (request.method === 'POST' && event) return { status: 200, body: await resend(event[1]!) };
      if (request.method === 'GET' && action === 'events') return { status: 200, body: ctx.state.deliveries };
      if (request.method === 'GET' && action === 'charges')
        return { status: 200, body: [...ctx.state.charges.values()].map((r) => r.value) };
      if (request.method === 'GET' && action === 'refunds')
        return { status: 200, body: [...ctx.state.refunds.values()].map((r) => r.value) };
      if (request.method === 'GET' && action === 'orders')
        return { status: 200, body: [...ctx.state.orders.values()].map((r) => r.value) };
      return null;
    } catch (error) {
      if (error instanceof CulqiControlError) return { status: error.status, body: { error: error.message } };
      throw error;
    }
  }

  const core = await startSimulator(
    {
      credentialOf: bearer,
      // A mode set for either key of an account holds for both: it is kept under the secret key.
      modeKeyOf: (key) => ctx.state.publicKeys.get(key) ?? key,
      handle,
      faultReply: (mode) =>
        mode === 'errors'
          ? errorReply('api_error', 'Ocurrió un error inesperado en Culqi. Por favor, inténtalo nuevamente en unos minutos.')
          : errorReply(
              'limit_api_error',
              'Has superado el límite de peticiones permitidas. Inténtalo nuevamente en unos minutos.',
            ),
      control,
      reset: forget,
    },
    {
      hosts: [
        { name: 'api', port: options.port },
        { name: 'secure', port: options.securePort },
      ],
    },
  );
  ctx.origin = core.url;
  // Tokens past their 5 minutes lose their card number; orders past their expiration_date expire.
  const sweep = setInterval(() => {
    sweepTokens(ctx);
    expireDueOrders(ctx);
  }, 1000);
  sweep.unref();

  return {
    url: core.urls.api!,
    secureUrl: core.urls.secure!,
    requests: core.requests,
    close: async () => {
      clearInterval(sweep);
      forget();
      await core.close();
    },
    setMode: (mode, setting) => core.setMode(mode, setting),
    addAccount: (account) => {
      addAccount(account);
    },
    payOrder: (id) => moveOrder(id, 'paid'),
    expireOrder: (id) => moveOrder(id, 'expired'),
    resendEvent: resend,
    charges: () => [...ctx.state.charges.values()].map((record) => copy(record.value)),
    cards: () => cardsOf(ctx),
    orders: () => [...ctx.state.orders.values()].map((record) => copy(record.value)),
    deliveries: () => copy(ctx.state.deliveries),
  };
}
