import { culqiKeys, mercadoPagoKeys } from '../../tests/simulators/test-keys';
import { PORT, operatorConsole } from './service';

export { culqiKeys, mercadoPagoKeys };

// Merchants' own processor accounts in the end-to-end suites: the simulators Playwright starts
// beside the services (playwright.config.ts), an account registered at a simulator as the
// processor's panel would make it, then connected through the console's procedures as a merchant
// admin would, and routing rules that send a method to it.

export const CULQI_SIMULATOR = `http://127.0.0.1:${PORT + 100}`;
export const MERCADOPAGO_SIMULATOR = `http://127.0.0.1:${PORT + 101}`;

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

type Method = 'CARD' | 'YAPE' | 'PAGOEFECTIVO' | 'CUOTEALO';

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
