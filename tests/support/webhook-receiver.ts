import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import type { PrismaClient } from '@/generated/prisma/client';
import { claimDueDeliveries } from '@/server/modules/events/delivery/claim-deliveries';
import { sendDelivery } from '@/server/modules/events/delivery/send-delivery';
import { SETUP_TIMEOUT } from './procedure-test-support';

/**
 * A local HTTP receiver for the suite's deliveries, listening for the whole file: each request's
 * whole body is given to `answer`, whose number is the status sent back. `origin()` is its
 * address once the suite has started.
 */
export function webhookReceiver(answer: (request: IncomingMessage, body: string) => number = () => 200) {
  let server: Server;
  let origin = '';
  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => response.writeHead(answer(request, Buffer.concat(chunks).toString('utf8'))).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, SETUP_TIMEOUT);
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { origin: () => origin };
}

/** Runs the delivery worker's claim and send until nothing is due, as the worker would. */
export async function deliverAll(prisma: PrismaClient): Promise<void> {
  for (;;) {
    const claimed = await claimDueDeliveries(prisma, 32);
    if (claimed.length === 0) return;
    for (const each of claimed) await sendDelivery(prisma, each);
  }
}
