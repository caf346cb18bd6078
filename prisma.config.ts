import { defineConfig } from 'prisma/config';

// Only `prisma generate` uses this file. Migrations run through scripts/db-migrate.ts.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
