// The processors' simulators as a process of their own (tests/simulators/README.md): the
// end-to-end suites start it beside the services (playwright.config.ts), and `npm run simulators`
// starts it for a local demo. Point the service at it with CULQI_API_URL, CULQI_SECURE_URL,
// MERCADOPAGO_API_URL, NIUBIZ_TEST_API_URL and IZIPAY_API_URL; the control API is under
// /__simulator/ of each.
//   tsx tests/simulators/serve.ts [--culqi-port 4310] [--culqi-secure-port 4312] [--mercadopago-port 4311]
//     [--niubiz-port 4313] [--izipay-port 4314]
import { startCulqiSimulator } from './culqi/culqi-simulator';
import { startIzipaySimulator } from './izipay/izipay-simulator';
import { startMercadoPagoSimulator } from './mercadopago/mercadopago-simulator';
import { startNiubizSimulator } from './niubiz/niubiz-simulator';
import { SIMULATOR_PORTS } from './ports';

function portArgument(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1 || value > 65535) throw new Error(`--${name} must be a port`);
  return value;
}

async function main(): Promise<void> {
  const culqi = await startCulqiSimulator({
    port: portArgument('culqi-port', SIMULATOR_PORTS.culqi),
    securePort: portArgument('culqi-secure-port', SIMULATOR_PORTS.culqiSecure),
  });
  const mercadoPago = await startMercadoPagoSimulator({ port: portArgument('mercadopago-port', SIMULATOR_PORTS.mercadopago) });
  const niubiz = await startNiubizSimulator({ port: portArgument('niubiz-port', SIMULATOR_PORTS.niubiz) });
  const izipay = await startIzipaySimulator({ port: portArgument('izipay-port', SIMULATOR_PORTS.izipay) });
  console.log(`Culqi simulator:        ${culqi.url}  (CULQI_API_URL), ${culqi.secureUrl}  (CULQI_SECURE_URL)`);
  console.log(`Mercado Pago simulator: ${mercadoPago.url}  (MERCADOPAGO_API_URL)`);
  console.log(`Niubiz simulator:       ${niubiz.url}  (NIUBIZ_TEST_API_URL)`);
  console.log(`Izipay simulator:       ${izipay.url}  (IZIPAY_API_URL)`);
  const stop = () => {
    void Promise.all([culqi.close(), mercadoPago.close(), niubiz.close(), izipay.close()]).then(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
