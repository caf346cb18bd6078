// npm run seed:operations -- --merchant C --count N [--prefix P] [--days D]
// Loads N operations (with transactions, lifecycles and refunds) for measurements. It opens the
// database directly: on the embedded database stop the service first (PGlite has one owner).
import { parseArgs } from 'node:util';
import { closeDatabase, db } from '../src/server/db/client';
import { seedOperations } from '../src/server/dev/seed-operations';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      merchant: { type: 'string', default: 'DEMO001' },
      count: { type: 'string', default: '10000' },
      prefix: { type: 'string', default: `SEED${Date.now().toString(36).toUpperCase()}-` },
      days: { type: 'string', default: '90' },
    },
  });
  const count = Number(values.count);
  const days = Number(values.days);
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(days) || days < 1) {
    throw new Error('--count and --days must be positive whole numbers');
  }
  const prisma = await db();
  const merchant = await prisma.merchant.findUnique({ where: { code: values.merchant }, select: { id: true } });
  if (!merchant) throw new Error(`no merchant ${values.merchant} (start the service once to seed the demo merchant)`);
  const started = performance.now();
  const result = await seedOperations(prisma, {
    merchantId: merchant.id,
    count,
    prefix: values.prefix,
    days,
    onBatch: (done) => console.log(`${done} operations…`),
  });
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `seeded ${result.operations} operations and ${result.refunds} refunds for ${values.merchant} in ${seconds.toFixed(1)} s ` +
      `(${Math.round(result.operations / seconds)} operations/s), numbers ${values.prefix}1…`,
  );
  await closeDatabase();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
