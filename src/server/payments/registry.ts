import { env } from '@/env';
import type { PaymentMethod } from '@/server/core/domain/states';
import type { PaymentConnector } from './connector';
import { acquirerA, acquirerB } from './sandbox/acquirer';
import { pagoEfectivoProcessor } from './sandbox/pagoefectivo';
import { qrProcessor } from './sandbox/qr';
import { bankTransferProcessor, cuotealoProcessor } from './sandbox/redirect';
import { sandboxConnector, type SandboxProcessor } from './sandbox/sandbox-connector';
import { databaseSandboxStore, type SandboxDb, type SandboxStore } from './sandbox/sandbox-store';
import { yapeRailA, yapeRailB } from './sandbox/yape';

/**
 * Every processor the service can use, in the platform's default order per method
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
