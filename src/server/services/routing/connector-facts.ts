import type { Db } from '@/server/db/client';
import type { ConnectorFacts } from '@/server/orchestration';
import { registryFor, sandboxStoreFor } from '@/server/payments';

/** Every connector as routing and rule validation see it: what it carries and whether it is enabled. */
export async function connectorFacts(prisma: Db): Promise<ConnectorFacts[]> {
  const registry = registryFor(prisma);
  const store = sandboxStoreFor(prisma);
  return Promise.all(
    registry.connectors.map(async (connector) => ({
      id: connector.id,
      methods: connector.methods,
      currencies: connector.currencies,
      capabilities: connector.capabilities,
      enabled: (await store.modeOf(connector.id)).enabled,
    })),
  );
}
