import { env } from '@/env';
import type { PaymentMethod } from '@/server/core/domain/states';
import type { PaymentConnector } from './connector';
import { culqi } from './culqi/culqi-connector';
import { izipay } from './izipay/izipay-connector';
import { mercadoPago } from './mercadopago/mercadopago-connector';
import { niubiz } from './niubiz/niubiz-connector';
import {
  accountConnector,
  type AccountCheck,
  type Processor,
  type ProcessorAccountConfig,
  type ProcessorEndpoints,
  type Integration,
} from './processor-account';
import { acquirerA, acquirerB } from './sandbox/acquirer';
import { pagoEfectivoProcessor } from './sandbox/pagoefectivo';
import { qrProcessor } from './sandbox/qr';
import { bankTransferProcessor, cuotealoProcessor } from './sandbox/redirect';
import { sandboxConnector, type SandboxProcessor } from './sandbox/sandbox-connector';
import { databaseSandboxStore, type SandboxDb, type SandboxStore } from './sandbox/sandbox-store';
import { yapeRailA, yapeRailB } from './sandbox/yape';

// Every connector the service can reach, in one place: the platform's sandbox processors, and the
// processors merchants connect their own accounts to (docs/processors/README.md), whose
// connectors are built per account (modules/processors/connectors.ts reads the account's row).

/**
 * Every sandbox processor, in the platform's default order per method
 * (docs/ORCHESTRATION.md 2: `sandbox-acquirer-a` then `sandbox-acquirer-b` for CARD,
 * `sandbox-yape` then `sandbox-yape-b`).
 */
const SANDBOX_PROCESSORS: readonly SandboxProcessor[] = [
  acquirerA,
  acquirerB,
  yapeRailA,
  yapeRailB,
  bankTransferProcessor,
  cuotealoProcessor,
  pagoEfectivoProcessor,
  qrProcessor,
];

export type Registry = {
  connectors: readonly PaymentConnector[];
  byId(id: string): PaymentConnector | undefined;
  /** The connectors that carry `method`, in the platform's default order. */
  forMethod(method: PaymentMethod): PaymentConnector[];
  /**
   * The connector that carried a stored transaction, which its reversal, refunds and status
   * inquiries go to; a transaction stored before connectors were recorded (`connectorId` null)
   * was carried by its method's first connector.
   */
  forTransaction(transaction: { connectorId: string | null; method: PaymentMethod }): PaymentConnector;
};

/** The registry of the sandbox connectors on `store`; every one answers within `timeoutMs`. */
export function createRegistry(store: SandboxStore, options: { timeoutMs?: number } = {}): Registry {
  const timeoutMs = options.timeoutMs ?? env().SANDBOX_TIMEOUT_MS;
  const connectors = SANDBOX_PROCESSORS.map((processor) => sandboxConnector(processor, store, timeoutMs));
  const byId = (id: string) => connectors.find((connector) => connector.id === id);
  const forMethod = (method: PaymentMethod) => connectors.filter((connector) => connector.methods.includes(method));
  return {
    connectors,
    byId,
    forMethod,
    forTransaction({ connectorId, method }) {
      const connector = connectorId === null ? forMethod(method)[0] : byId(connectorId);
      if (!connector) throw new Error(`No connector ${connectorId ?? `carries ${method} payments`}`);
      return connector;
    },
  };
}

// One store per database handle, so that a mode set through it (console, CLI) applies at once
// to the registry of that handle, and its settings cache is shared by all its charges.
const stores = new WeakMap<SandboxDb, SandboxStore>();
const registries = new WeakMap<SandboxDb, Registry>();

/** The sandbox processors' store on `db` (the client, or a transaction: see SandboxDb). */
export function sandboxStoreFor(db: SandboxDb): SandboxStore {
  let store = stores.get(db);
  if (!store) {
    store = databaseSandboxStore(db);
    stores.set(db, store);
  }
  return store;
}

/** The registry on `db`, made once per handle. Inside a database transaction, pass the transaction. */
export function registryFor(db: SandboxDb): Registry {
  let registry = registries.get(db);
  if (!registry) {
    registry = createRegistry(sandboxStoreFor(db));
    registries.set(db, registry);
  }
  return registry;
}

/** The processors a merchant can connect its own account to: each declared once, in its connector file. */
export const PROCESSOR_INTEGRATIONS: Readonly<Record<Processor, Integration>> = {
  culqi,
  mercadopago: mercadoPago,
  niubiz,
  izipay,
};

/** The processors' APIs as configuration names them. */
export function processorEndpoints(): ProcessorEndpoints {
  const config = env();
  return {
    culqiApi: config.CULQI_API_URL,
    culqiSecure: config.CULQI_SECURE_URL,
    mercadoPagoApi: config.MERCADOPAGO_API_URL,
    niubizApi: { test: config.NIUBIZ_TEST_API_URL, live: config.NIUBIZ_LIVE_API_URL },
    izipayApi: config.IZIPAY_API_URL,
    timeoutMs: config.PROCESSOR_TIMEOUT_MS,
  };
}

/** The connector of a merchant's account. */
export function processorConnector(account: ProcessorAccountConfig, endpoints = processorEndpoints()): PaymentConnector {
  return accountConnector(PROCESSOR_INTEGRATIONS[account.processor], account, endpoints);
}

/** Asks the processor whether it takes the account's keys. */
export function checkProcessorAccount(account: ProcessorAccountConfig, endpoints = processorEndpoints()): Promise<AccountCheck> {
  return PROCESSOR_INTEGRATIONS[account.processor].check(account, endpoints);
}
