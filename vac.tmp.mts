const { openPglite } = await import('/work/main/src/server/platform/db/adapter');
const handle = await openPglite(`${process.argv[2]}/pglite`);
const { PrismaClient } = await import('/work/main/src/generated/prisma/client');
const prisma = new PrismaClient({ adapter: handle.factory });
const t0 = performance.now();
await prisma.$executeRawUnsafe(process.argv[3] ?? 'VACUUM (TRUNCATE false) charge_claims');
console.log('ms', (performance.now() - t0).toFixed(0));
await prisma.$disconnect(); await handle.close();
