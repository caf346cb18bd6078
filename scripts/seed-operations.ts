// npm run seed:operations -- --merchant C[,C2,...] --count N [--prefix P] [--days D] [--create-merchants]
//   [--concurrency K]
// Loads N operations (with transactions, lifecycles and refunds) for measurements, spread
// unevenly over the merchants named (the first gets the most). --create-merchants makes the
// merchants that do not exist yet. On PostgreSQL K batches (default 2) are written at once, each
// on its own connection. It opens the database directly: on the embedded database stop
// the service first (PGlite has one owner).
import { parseArgs } from 'node:util';
import { env } from '../src/env';
import { closeDatabase, db } from '../src/server/platform/db/client';
import { seedOperations } from './support/seed-operations';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      merchant: { type: 'string', default: 'DEMO001' },
      count: { type: 'string', default: '10000' },
      prefix: { type: 'string', default: `SEED${Date.now().toString(36).toUpperCase()}-` },
      days: { type: 'string', default: '90' },
      'create-merchants': { type: 'boolean', default: false },
      concurrency: { type: 'string' },
    },
  });
  const count = Number(values.count);
  const days = Number(values.days);
  // The embedded database has one connection: batches there go one at a time.
  const concurrency = Number(values.concurrency ?? (env().DATABASE_URL ? 2 : 1));
  if ([count, days, concurrency].some((value) => !Number.isInteger(value) || value < 1)) {
    throw new Error('--count, --days and --concurrency must be positive whole numbers');
  }
  const codes = values.merchant.split(',').map((code) => code.trim());
  const prisma = await db();
  const merchantIds: string[] = [];
  for (const code of codes) {
    const merchant = values['create-merchants']
      ? await prisma.merchant.upsert({
          where: { code },
          create: { code, name: `Seeded ${code}` },
          update: {},
          select: { id: true },
        })
      : await prisma.merchant.findUnique({ where: { code }, select: { id: true } });
    if (!merchant)
      throw new Error(`no merchant ${code} (start the service once to seed the demo merchant, or --create-merchants)`);
    merchantIds.push(merchant.id);
  }
  const started = performance.now();
  const result = await seedOperations(prisma, {
    merchantIds,
    count,
    prefix: values.prefix,
    days,
    concurrency,
    onBatch: (done) => console.log(`${done} operations…`),
  });
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `seeded ${result.operations} operations and ${result.refunds} refunds for ${codes.join(', ')} in ${seconds.toFixed(1)} s ` +
      `(${Math.round(result.operations / seconds)} operations/s), numbers ${values.prefix}1…`,
  );
  await closeDatabase();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
