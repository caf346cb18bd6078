import type { Db } from '@/server/platform/db/client';
import { AppError } from '@/server/core/domain/errors';
import { CONNECTOR_MODES, type ConnectorMode } from '@/server/core/domain/connector-modes';
import { registryFor, sandboxStoreFor } from '@/server/payments';
import { breakers } from '@/server/modules/processors/breakers';
import { callsOf } from '@/server/modules/processors/bulkheads';
import type { MerchantScope } from '@/server/modules/access/merchant-scope';
import { approvalSeries, connectorStats, STAT_WINDOWS, type StatWindow } from './connector-stats';

// The processors as the console's Processors page and the CLI show them (docs/ORCHESTRATION.md
// 1, 4): each connector with what it carries, its mode and whether it is enabled (shared by every
// instance), this instance's breaker, and the health statistics of the traffic the user may see.

export async function processorsView(prisma: Db) {
  const registry = registryFor(prisma);
  const board = new Map(
    breakers()
      .snapshot()
      .map((breaker) => [breaker.connector, breaker]),
  );
  return Promise.all(
    registry.connectors.map(async (connector) => {
      const settings = await sandboxStoreFor(prisma).modeOf(connector.id);
      return {
        id: connector.id,
        name: connector.name,
        methods: [...connector.methods],
        currencies: [...connector.currencies],
        capabilities: connector.capabilities,
        timeoutMs: connector.timeoutMs,
        mode: settings.mode,
        enabled: settings.enabled,
        breaker: board.get(connector.id)?.state ?? 'closed',
        calls: callsOf(connector),
      };
    }),
  );
}

function knownConnector(prisma: Db, id: string): void {
  if (!registryFor(prisma).byId(id)) throw new AppError('NOT_FOUND', `no connector ${id}`);
}

export async function setConnectorMode(prisma: Db, input: { connector: string; mode: ConnectorMode }) {
  knownConnector(prisma, input.connector);
  if (!CONNECTOR_MODES.includes(input.mode))
    throw new AppError('VALIDATION', `mode must be one of ${CONNECTOR_MODES.join(', ')}`);
  await sandboxStoreFor(prisma).setMode(input.connector, input.mode);
  return processorsView(prisma);
}

export async function setConnectorEnabled(prisma: Db, input: { connector: string; enabled: boolean }) {
  knownConnector(prisma, input.connector);
  await sandboxStoreFor(prisma).setEnabled(input.connector, input.enabled);
  return processorsView(prisma);
}

/** Platform staff see every merchant's traffic; a merchant user its own. */
export async function processorHealth(prisma: Db, scope: MerchantScope, window: StatWindow, now = new Date()) {
  const since = new Date(now.getTime() - STAT_WINDOWS[window]);
  const merchantIds = scope.kind === 'all' ? null : [scope.merchantId];
  const [stats, series] = await Promise.all([
    connectorStats(prisma, { since, merchantIds }),
    approvalSeries(prisma, { since, merchantIds, bucket: window === 'week' ? 'day' : 'hour' }),
  ]);
  return {
    window,
    since: since.toISOString(),
    stats,
    series: series.map((point) => ({ ...point, at: point.at.toISOString() })),
  };
}
