import { randomBytes, randomInt } from 'node:crypto';
import { culqiKeys, mercadoPagoKeys } from '../../tests/simulators/test-keys';
import { PORT, operatorConsole } from './service';

export { culqiKeys, mercadoPagoKeys };

// Merchants' own processor accounts in the end-to-end suites: the simulators Playwright starts
// beside the services (playwright.config.ts), an account registered at a simulator as the
// processor's panel would make it, then connected through the console's procedures as a merchant
// admin would, and routing rules that send a method to it.

export const CULQI_SIMULATOR = `http://127.0.0.1:${PORT + 100}`;
export const MERCADOPAGO_SIMULATOR = `http://127.0.0.1:${PORT + 101}`;
export const NIUBIZ_SIMULATOR = `http://127.0.0.1:${PORT + 103}`;
export const IZIPAY_SIMULATOR = `http://127.0.0.1:${PORT + 104}`;

/** A call to a simulator's control API (tests/simulators/README.md). */
export async function simulatorControl<T = unknown>(base: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}/__simulator/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`simulator ${path}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

type Method = 'CARD' | 'YAPE' | 'PAGOEFECTIVO' | 'CUOTEALO' | 'QR';

/** A Culqi account of `merchantCode`, its webhook set at the simulator with the credentials the console showed once. */
export async function connectCulqi(merchantCode: string, methods: Method[] = ['CARD', 'YAPE', 'PAGOEFECTIVO'], port = PORT) {
  const keys = culqiKeys();
  const connected = await operatorConsole(port).processorAccounts.connect.mutate({
    merchantCode,
    processor: 'culqi',
    name: 'Culqi principal',
    environment: 'test',
    methods,
    ...keys,
  });
  const webhook = connected.webhook!;
  await simulatorControl(CULQI_SIMULATOR, 'accounts', {
    public_key: keys.publicKey,
    secret_key: keys.secretKey,
    webhook: { url: connected.account.notificationUrl, username: webhook.username, password: webhook.password },
  });
  return { account: connected.account, keys, webhook };
}

/**
 * A Mercado Pago account of `merchantCode`, with the webhook secret its application shows, and
 * the application's Webhooks URL set to the account's notification URL as the merchant sets it in
 * Your integrations > Webhooks: the service sends no `notification_url` for a local http address,
 * and Mercado Pago sends test payments' notifications only when the panel's "Simular" (the
 * simulator's `payments/{id}/notify`) is pressed.
 */
export async function connectMercadoPago(merchantCode: string, methods: Method[] = ['CARD', 'YAPE'], port = PORT) {
  const keys = mercadoPagoKeys();
  await simulatorControl(MERCADOPAGO_SIMULATOR, 'accounts', {
    access_token: keys.secretKey,
    public_key: keys.publicKey,
    webhook_secret: keys.webhookSecret,
  });
  const connected = await operatorConsole(port).processorAccounts.connect.mutate({
    merchantCode,
    processor: 'mercadopago',
    name: 'Mercado Pago',
    environment: 'test',
    methods,
    ...keys,
  });
  await simulatorControl(MERCADOPAGO_SIMULATOR, 'webhooks', {
    access_token: keys.secretKey,
    url: connected.account.notificationUrl,
  });
  return { account: connected.account, keys };
}

/**
 * A Niubiz account of `merchantCode`: a merchant code, API user and password as Niubiz provisions
 * them, with the URL Niubiz is asked to post the account's QR callbacks to.
 */
export async function connectNiubiz(merchantCode: string, methods: Method[] = ['CARD', 'YAPE', 'QR'], port = PORT) {
  const keys = {
    merchantId: String(randomInt(100_000_000, 1_000_000_000)),
    user: `integraciones+${randomBytes(4).toString('hex')}@niubiz.test`,
    password: randomBytes(9).toString('base64url'),
  };
  const connected = await operatorConsole(port).processorAccounts.connect.mutate({
    merchantCode,
    processor: 'niubiz',
    name: 'Niubiz',
    environment: 'test',
    methods,
    publicKey: keys.merchantId,
    apiUser: keys.user,
    secretKey: keys.password,
  });
  await simulatorControl(NIUBIZ_SIMULATOR, 'accounts', { ...keys, callbackUrl: connected.account.notificationUrl });
  return { account: connected.account, keys };
}

/** An Izipay shop of `merchantCode`, its Back Office notification rule set to the account's URL. */
export async function connectIzipay(merchantCode: string, port = PORT) {
  const keys = {
    shopId: String(randomInt(10_000_000, 100_000_000)),
    password: `testpassword_${randomBytes(24).toString('base64url').replace(/[-_]/g, 'x')}`,
  };
  const connected = await operatorConsole(port).processorAccounts.connect.mutate({
    merchantCode,
    processor: 'izipay',
    name: 'Izipay',
    environment: 'test',
    methods: ['CARD'],
    publicKey: keys.shopId,
    secretKey: keys.password,
  });
  await simulatorControl(IZIPAY_SIMULATOR, 'accounts', {
    shop_id: keys.shopId,
    password: keys.password,
    ipn_url: connected.account.notificationUrl,
  });
  return { account: connected.account, keys };
}

/** Sets a simulator's mode for one account (its credential key) or for all. */
export function simulatorMode(
  base: string,
  mode: 'normal' | 'outage' | 'slow' | 'errors' | 'rate_limited',
  key: string,
  delayMs?: number,
) {
  return simulatorControl(base, 'mode', { mode, key, ...(delayMs === undefined ? {} : { delay_ms: delayMs }) });
}

/** Publishes a rule that tries `connectors` in this order for the merchant's `method` payments. */
export async function routeTo(merchantCode: string, method: Method, connectors: string[], port = PORT) {
  const procedures = operatorConsole(port).routing;
  await procedures.saveDraft.mutate({
    merchantCode,
    method,
    routes: connectors.map((connector, index) => ({ connector, priority: index + 1 })),
  });
  await procedures.publishDraft.mutate({ merchantCode, method });
}
