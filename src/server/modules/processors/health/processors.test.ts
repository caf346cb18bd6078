import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { withTestDatabase } from '@tests/support/procedure-test-support';
import { defaultBulkheadLimit } from '@/server/core/orchestration';
import { registryFor } from '@/server/payments';
import { bulkheads } from '@/server/modules/processors/bulkheads';
import { processorsView } from './processors';

// The Processors page's and the CLI's view of this instance's bulkheads (docs/ORCHESTRATION.md 4).
const fixture = withTestDatabase();

describe('processorsView', () => {
  it("gives each connector this instance's calls in flight, its bulkhead's limit and the calls kept back", async () => {
    const acquirerA = registryFor(fixture.db.prisma).connectors.find((connector) => connector.id === 'sandbox-acquirer-a')!;
    const bulkhead = bulkheads().for(acquirerA);
    const limit = defaultBulkheadLimit(acquirerA.timeoutMs, getHeapStatistics().heap_size_limit);
    const refusedBefore = bulkhead.refused;
    const held: (() => void)[] = [];
    for (let release = bulkhead.enter(); release; release = bulkhead.enter()) held.push(release);
    const callsOf = async (id: string) => (await processorsView(fixture.db.prisma)).find((each) => each.id === id)!.calls;
    try {
      expect(await callsOf('sandbox-acquirer-a')).toEqual({ inFlight: limit, limit, refused: refusedBefore + 1 });
      expect((await callsOf('sandbox-acquirer-b')).inFlight).toBe(0);
    } finally {
      for (const release of held) release();
    }
    expect(await callsOf('sandbox-acquirer-a')).toEqual({ inFlight: 0, limit, refused: refusedBefore + 1 });
  });
});
