const { openPglite } = await import('/work/main/src/server/platform/db/adapter');
const handle = await openPglite(`${process.argv[2]}/pglite`);
const { PrismaClient } = await import('/work/main/src/generated/prisma/client');
const prisma = new PrismaClient({ adapter: handle.factory });
for (const q of process.argv.slice(3)) {
  const t0 = performance.now();
  const r = await prisma.$queryRawUnsafe<any[]>(q);
  console.log((performance.now() - t0).toFixed(1), 'ms', JSON.stringify(r).slice(0, 1500));
}
await prisma.$disconnect(); await handle.close();
