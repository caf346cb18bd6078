// npm run demo (after the build): starts the service, waits until it answers, then prints the
// demo sign-in on this terminal only. The service's own log never holds the demo client secret
// or password (no log line holds a secret); the person who started it needs them.
//
// npm run demo -- --processors: the processors' simulators too (tests/simulators), the service
// pointed at them, and a second demo merchant whose Culqi, Mercado Pago, Niubiz and Izipay
// accounts carry its payments (docs/processors/README.md): CARD across all four.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { env } from '../src/env';
import { operatorTrpcClient } from './support/api-client';
import { serviceCommand } from './support/service-process';
import { DEMO_USERS } from '../src/server/startup/seed-demo';
import { startCulqiSimulator } from '../tests/simulators/culqi/culqi-simulator';
import { startIzipaySimulator } from '../tests/simulators/izipay/izipay-simulator';
import { startMercadoPagoSimulator } from '../tests/simulators/mercadopago/mercadopago-simulator';
import { startNiubizSimulator } from '../tests/simulators/niubiz/niubiz-simulator';
import { SIMULATOR_PORTS } from '../tests/simulators/ports';

async function waitUntilReady(origin: string, service: ReturnType<typeof spawn>): Promise<boolean> {
  for (;;) {
    if (service.exitCode !== null) return false;
    try {
      if ((await fetch(`${origin}/api/health`)).ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

// The processors demo merchant's keys: fixed, like the demo client secret, so that a restart on
// the same data finds its accounts again at the (fresh) simulators. Test keys of no real account.
const PROCESSORS_MERCHANT = 'DEMOPROC';
const CULQI = { publicKey: 'pk_test_demo0culqi0000001', secretKey: 'sk_test_demo0culqi0000001' };
const MERCADOPAGO = {
  publicKey: 'TEST-0d0e0000-0000-4000-8000-000000000001',
  secretKey: 'TEST-1000000000000001-112526-0123456789abcdef0123456789abcdef-100000001',
  webhookSecret: 'demo-webhook-secret-0123456789abcdef',
};
const NIUBIZ = { merchantId: '400000901', user: 'demo@niubiz.test', password: 'demo-niubiz-password' };
const IZIPAY = { shopId: '40000902', password: 'testpassword_demoIzipayRestPassword0001' };

/** Connects the processors demo merchant's accounts (once) and routes its payments to them; what to print. */
async function processorsDemo(origin: string): Promise<string[]> {
  const { operatorToken } = JSON.parse(readFileSync(env().SERVICE_FILE, 'utf8')) as { operatorToken: string };
  const operator = operatorTrpcClient(origin, operatorToken);
  const lines = [''];
  const { rows } = await operator.console.platform.merchants.query({ search: PROCESSORS_MERCHANT });
  if (!rows.some((merchant) => merchant.code === PROCESSORS_MERCHANT)) {
    await operator.console.platform.createMerchant.mutate({ code: PROCESSORS_MERCHANT, name: 'Demo con procesadores' });
    const credential = await operator.admin.issueCredential.mutate({ owner: { merchantCode: PROCESSORS_MERCHANT } });
    lines.push(
      `  Merchant ${PROCESSORS_MERCHANT}: client_id ${credential.client_id}, client_secret ${credential.client_secret} (shown once)`,
    );
  } else {
    lines.push(`  Merchant ${PROCESSORS_MERCHANT}: its credentials were printed when it was first made`);
  }
  const accounts = operator.console.processorAccounts;
  let { accounts: connected } = await accounts.accounts.query({ merchantCode: PROCESSORS_MERCHANT });
  let culqi = connected.find((account) => account.processor === 'culqi');
  let culqiWebhook: { username: string; password: string } | null = null;
  if (!culqi) {
    const made = await accounts.connect.mutate({
      merchantCode: PROCESSORS_MERCHANT,
      processor: 'culqi',
      name: 'Culqi (simulador)',
      environment: 'test',
      methods: ['CARD', 'YAPE', 'PAGOEFECTIVO', 'CUOTEALO'],
      ...CULQI,
    });
    culqi = made.account;
    culqiWebhook = made.webhook;
  } else {
    culqiWebhook = (await accounts.renewWebhook.mutate({ id: culqi.id })).webhook;
  }
  if (!connected.some((account) => account.processor === 'mercadopago')) {
    await accounts.connect.mutate({
      merchantCode: PROCESSORS_MERCHANT,
      processor: 'mercadopago',
      name: 'Mercado Pago (simulador)',
      environment: 'test',
      methods: ['CARD', 'YAPE'],
      ...MERCADOPAGO,
    });
  }
  if (!connected.some((account) => account.processor === 'niubiz')) {
    await accounts.connect.mutate({
      merchantCode: PROCESSORS_MERCHANT,
      processor: 'niubiz',
      name: 'Niubiz (simulador)',
      environment: 'test',
      methods: ['CARD', 'YAPE', 'QR'],
      publicKey: NIUBIZ.merchantId,
      apiUser: NIUBIZ.user,
      secretKey: NIUBIZ.password,
    });
  }
  if (!connected.some((account) => account.processor === 'izipay')) {
    await accounts.connect.mutate({
      merchantCode: PROCESSORS_MERCHANT,
      processor: 'izipay',
      name: 'Izipay (simulador)',
      environment: 'test',
      methods: ['CARD'],
      publicKey: IZIPAY.shopId,
      secretKey: IZIPAY.password,
    });
  }
  ({ accounts: connected } = await accounts.accounts.query({ merchantCode: PROCESSORS_MERCHANT }));
  const mercadoPago = connected.find((account) => account.processor === 'mercadopago')!;
  const niubiz = connected.find((account) => account.processor === 'niubiz')!;
  const izipay = connected.find((account) => account.processor === 'izipay')!;
  const control = (port: number, body: unknown) =>
    fetch(`http://127.0.0.1:${port}/__simulator/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  await control(SIMULATOR_PORTS.culqi, {
    public_key: CULQI.publicKey,
    secret_key: CULQI.secretKey,
    webhook: { url: culqi.notificationUrl, ...culqiWebhook },
  });
  await control(SIMULATOR_PORTS.mercadopago, {
    access_token: MERCADOPAGO.secretKey,
    public_key: MERCADOPAGO.publicKey,
    webhook_secret: MERCADOPAGO.webhookSecret,
  });
  await control(SIMULATOR_PORTS.niubiz, { ...NIUBIZ, callbackUrl: niubiz.notificationUrl });
  await control(SIMULATOR_PORTS.izipay, { shop_id: IZIPAY.shopId, password: IZIPAY.password, ipn_url: izipay.notificationUrl });
  const rules = {
    CARD: [culqi.connectorId, mercadoPago.connectorId, niubiz.connectorId, izipay.connectorId, 'sandbox-acquirer-a'],
    QR: [niubiz.connectorId],
    YAPE: [mercadoPago.connectorId, culqi.connectorId],
    PAGOEFECTIVO: [culqi.connectorId],
    CUOTEALO: [culqi.connectorId],
  } as const;
  for (const [method, connectors] of Object.entries(rules) as [keyof typeof rules, readonly string[]][]) {
    const routes = connectors.map((connector, index) => ({ connector, priority: index + 1 }));
    await operator.console.routing.saveDraft.mutate({ merchantCode: PROCESSORS_MERCHANT, method, routes });
    await operator.console.routing.publishDraft.mutate({ merchantCode: PROCESSORS_MERCHANT, method });
    lines.push(`    ${method.padEnd(13)} → ${connectors.join(', ')}`);
  }
  lines.splice(
    2,
    0,
    `  Its payments go to the simulators (Culqi ${SIMULATOR_PORTS.culqi}, Mercado Pago ${SIMULATOR_PORTS.mercadopago}, Niubiz ${SIMULATOR_PORTS.niubiz}, Izipay ${SIMULATOR_PORTS.izipay}):`,
  );
  lines.push(
    `  Pay a PagoEfectivo order as Culqi would: curl -X POST http://127.0.0.1:${SIMULATOR_PORTS.culqi}/__simulator/orders/<ord_… of its additional_fields.processor_reference>/pay`,
    `  Pay a QR as a Yape or Plin app would at Niubiz: curl -X POST http://127.0.0.1:${SIMULATOR_PORTS.niubiz}/__simulator/qr/<its processor_response.qr_id>/pay`,
  );
  return lines;
}

async function main(): Promise<void> {
  const config = env();
  const withProcessors = process.argv.includes('--processors');
  const simulators = withProcessors
    ? await Promise.all([
        startCulqiSimulator({ port: SIMULATOR_PORTS.culqi, securePort: SIMULATOR_PORTS.culqiSecure }),
        startMercadoPagoSimulator({ port: SIMULATOR_PORTS.mercadopago }),
        startNiubizSimulator({ port: SIMULATOR_PORTS.niubiz }),
        startIzipaySimulator({ port: SIMULATOR_PORTS.izipay }),
      ] as const)
    : [];
  // The demo's callbacks may go to a receiver on this machine (docs/DEPLOYMENT.md).
  const demo = { CALLBACKS_ALLOW_PRIVATE_NETWORKS: 'true', ...process.env };
  const service = spawn(process.execPath, serviceCommand().slice(1), {
    stdio: 'inherit',
    env: withProcessors
      ? {
          ...demo,
          CULQI_API_URL: simulators[0].url,
          CULQI_SECURE_URL: simulators[0].secureUrl,
          MERCADOPAGO_API_URL: simulators[1].url,
          NIUBIZ_TEST_API_URL: simulators[2].url,
          IZIPAY_API_URL: simulators[3].url,
        }
      : demo,
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => service.kill(signal));
  service.on('exit', (code) => process.exit(code ?? 1));
  if (!(await waitUntilReady(`http://127.0.0.1:${config.PORT}`, service)) || !config.SEED_DEMO) return;
  const processors = withProcessors ? await processorsDemo(`http://127.0.0.1:${config.PORT}`) : [];
  console.log(
    [
      '',
      '  Demo sign-in (printed here, never logged by the service)',
      `  Merchant ${config.DEMO_MERCHANT_CODE}: client_id ${config.DEMO_CLIENT_ID}, client_secret ${config.DEMO_CLIENT_SECRET}`,
      `  Console ${config.origin}/login, password ${config.DEMO_PASSWORD} for each of:`,
      ...DEMO_USERS.map((user) => `    ${user.role.padEnd(16)} ${user.email}`),
      ...processors,
      '',
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
