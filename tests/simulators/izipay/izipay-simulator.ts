import { randomUUID } from 'node:crypto';
import { startSimulator, type RecordedRequest, type SimReply, type SimRequest, type SimulatorMode } from '../simulator-http';
import { createIpnSender, type IpnDelivery } from './izipay-ipn';
import {
  cancelOrRefund,
  cancelTransaction,
  cancelToken,
  createToken,
  createPayment,
  getOrder,
  getTransaction,
  renderPayment,
  renderTransaction,
  settle,
  updateTransaction,
  validateTransaction,
  wsError,
  type Account,
  type State,
  type WsResult,
} from './izipay-payments';

// A local Izipay REST API V4 (micuentaweb, Lyra's platform) for the connector's tests: the same
// paths (`POST /api-payment/V4/<WS>`) and envelopes as api.micuentaweb.pe, on a loopback origin.
// What each behaviour follows is in README.md next to this file.

export type { IpnDelivery } from './izipay-ipn';

export type IzipaySimulator = {
  url: string;
  requests: RecordedRequest[];
  /** A mode for every account, or (key: its shop id) for one. */
  setMode(mode: SimulatorMode, options?: { key?: string; delayMs?: number }): void;
  /** Registers a shop as the Back Office provisions it: shop id (8 digits), REST password, optional IPN rule URL. */
  addAccount(account: { shopId: string; password: string; ipnUrl?: string }): void;
  /** Sends the IPN of a transaction now (the Back Office's manual sending); resolves with its attempts. */
  sendIpn(uuid: string): Promise<IpnDelivery[]>;
  /** Replays an IPN byte for byte (same kr-answer, same kr-hash). */
  replayIpn(ipnId: number): Promise<IpnDelivery | null>;
  ipns(): IpnDelivery[];
  /** A transaction as Transaction/Get answers it (masked card only). */
  transaction(uuid: string): Record<string, unknown> | null;
  close(): Promise<void>;
};

/** 8 digits (§1.1: `69876357`, `51447378`). */
export const SHOP_ID_PATTERN = /^\d{8}$/;
/** `testpassword_…` / `prodpassword_…` (§1.1). */
export const PASSWORD_PATTERN = /^(test|prod)password_[A-Za-z0-9]{8,}$/;

const WEB_SERVICES = {
  'Charge/CreatePayment': createPayment,
  'Charge/CreateToken': createToken,
  'Token/Cancel': cancelToken,
  'Order/Get': getOrder,
  'Transaction/Get': getTransaction,
  'Transaction/Update': updateTransaction,
  'Transaction/Validate': validateTransaction,
  'Transaction/Cancel': cancelTransaction,
  'Transaction/CancelOrRefund': cancelOrRefund,
} as const;

export async function startIzipaySimulator(
  options: { port?: number; captureDelayMs?: number; ipnAttempts?: number; ipnRetryDelayMs?: number } = {},
): Promise<IzipaySimulator> {
  const state: State = {
    accounts: new Map(),
    transactions: new Map(),
    tokens: new Map(),
    captureDelayMs: options.captureDelayMs ?? 0,
  };
  const ipn = createIpnSender({ attempts: options.ipnAttempts, retryDelayMs: options.ipnRetryDelayMs });

  function addAccount(input: { shopId: string; password: string; ipnUrl?: string }): void {
    if (!SHOP_ID_PATTERN.test(input.shopId)) throw new Error('shopId must be 8 digits');
    if (!PASSWORD_PATTERN.test(input.password)) throw new Error('password must look like testpassword_… or prodpassword_…');
    state.accounts.set(input.shopId, { shopId: input.shopId, password: input.password, ipnUrl: input.ipnUrl ?? null });
  }

  /** The Basic credentials (§1.1), when well formed. */
  function credentialsOf(request: SimRequest): { shopId: string; password: string } | null {
    const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(request.headers.authorization ?? '');
    if (!match) return null;
    const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon > 0 ? { shopId: decoded.slice(0, colon), password: decoded.slice(colon + 1) } : null;
  }

  /** The envelope of every answer (§6.1 [LY-ws], [MCW-dataonly]), HTTP 200 for SUCCESS and ERROR alike. */
  function envelope(webService: string, result: WsResult, account: Account | null): SimReply {
    return {
      status: 200,
      body: {
        webService,
        version: 'V4',
        applicationVersion: '6.3.0',
        serverDate: new Date().toISOString().replace(/\.\d{3}Z$/, '+00:00'),
        ticket: randomUUID().replaceAll('-', ''),
        applicationProvider: 'MCW',
        metadata: null,
        status: result.ok ? 'SUCCESS' : 'ERROR',
        mode: account?.password.startsWith('prodpassword_') ? 'PRODUCTION' : 'TEST',
        serverUrl: 'https://api.micuentaweb.pe',
        answer: result.ok
          ? result.answer
          : {
              errorCode: result.error.errorCode,
              errorMessage: result.error.errorMessage,
              detailedErrorCode: result.error.detailedErrorCode ?? null,
              detailedErrorMessage: result.error.detailedErrorMessage ?? null,
              _type: 'V4/WebService/WebServiceError',
            },
        _type: 'V4/WebService/Response',
      },
    };
  }

  async function handle(request: SimRequest): Promise<SimReply | null> {
    const match = /^\/api-payment\/(V4(?:\.1)?)\/(.+)$/.exec(request.path);
    if (!match) return null;
    const webService = match[2]!;
    // Every web service is a POST (§1.1).
    if (request.method !== 'POST') return { status: 405, html: '<html><body>Method Not Allowed</body></html>' };
    const credentials = credentialsOf(request);
    const account = credentials ? state.accounts.get(credentials.shopId) : undefined;
    // Bad credentials: HTTP 200, ERROR INT_905 (§1.1 [3P-misc]: "invalid login or private key").
    if (!account || account.password !== credentials!.password) {
      return envelope(webService, wsError('INT_905', 'invalid login or private key'), null);
    }
    // A body that is not a JSON object: INT_902 (§8.1 [LY-ws] "can't decode JSON data").
    const body = request.json;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      return envelope(
        webService,
        wsError('INT_902', 'web-service input data validation error', "can't decode JSON data"),
        account,
      );
    }
    const service = match[1] === 'V4' ? WEB_SERVICES[webService as keyof typeof WEB_SERVICES] : undefined;
    // A web service the simulator does not make (README): INT_901 "Web Service not found" (§8.5).
    if (!service) return envelope(webService, wsError('INT_901', 'web service not found'), account);
    return envelope(webService, service(state, account, body as Record<string, unknown>), account);
  }

  async function sendIpn(uuid: string): Promise<IpnDelivery[]> {
    const transaction = state.transactions.get(uuid);
    if (!transaction) throw new Error(`unknown transaction ${uuid}`);
    const account = state.accounts.get(transaction.shopId)!;
    const url = transaction.ipnTargetUrl ?? account.ipnUrl;
    if (!url) throw new Error(`transaction ${uuid} has no ipnTargetUrl and its shop no IPN URL`);
    const answer = JSON.stringify(renderPayment(state, settle(state, transaction)));
    return ipn.send({ url, password: account.password, uuid, answer });
  }

  function transaction(uuid: string): Record<string, unknown> | null {
    const found = state.transactions.get(uuid);
    return found ? renderTransaction(settle(state, found)) : null;
  }

  async function control(request: SimRequest): Promise<SimReply | null> {
    const action = request.path.slice('/__simulator/'.length);
    const body = (request.json ?? {}) as Record<string, unknown>;
    if (request.method === 'POST' && action === 'accounts') {
      try {
        addAccount({
          shopId: typeof body.shop_id === 'string' ? body.shop_id : '',
          password: typeof body.password === 'string' ? body.password : '',
          ...(typeof body.ipn_url === 'string' ? { ipnUrl: body.ipn_url } : {}),
        });
        return { status: 201, body: { shop_id: body.shop_id } };
      } catch (error) {
        return { status: 400, body: { error: error instanceof Error ? error.message : 'invalid account' } };
      }
    }
    const send = /^transactions\/([0-9a-f]{32})\/ipn$/.exec(action);
    if (request.method === 'POST' && send) {
      if (!state.transactions.has(send[1]!)) return { status: 404, body: { error: 'unknown transaction' } };
      try {
        return { status: 200, body: { deliveries: await sendIpn(send[1]!) } };
      } catch (error) {
        return { status: 409, body: { error: error instanceof Error ? error.message : 'no IPN URL' } };
      }
    }
    const replay = /^ipns\/(\d+)\/replay$/.exec(action);
    if (request.method === 'POST' && replay) {
      const delivery = await ipn.replay(Number(replay[1]));
      return delivery ? { status: 200, body: delivery } : { status: 404, body: { error: 'unknown IPN' } };
    }
    if (request.method === 'GET' && action === 'ipns') return { status: 200, body: ipn.log() };
    return null;
  }

  const core = await startSimulator(
    {
      // The mode and the log's credential are the shop id (the password never goes to the log's credential).
      credentialOf: (request) => credentialsOf(request)?.shopId ?? null,
      handle,
      faultReply: (mode) =>
        mode === 'errors'
          ? { status: 500, html: '<html><body><h1>500 Internal Server Error</h1></body></html>' }
          : // PSP_106 "API call limit exceeded" (§8.4 †), in the usual envelope.
            envelope('', wsError('PSP_106', 'API call limit exceeded'), null),
      control,
      reset() {
        state.accounts.clear();
        state.transactions.clear();
        ipn.reset();
      },
    },
    { port: options.port },
  );

  return {
    url: core.url,
    requests: core.requests,
    setMode: (mode, modeOptions) => core.setMode(mode, modeOptions),
    addAccount,
    sendIpn,
    replayIpn: (ipnId) => ipn.replay(ipnId),
    ipns: () => ipn.log(),
    transaction,
    async close() {
      ipn.reset();
      await core.close();
    },
  };
}
