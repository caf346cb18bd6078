import type { Db } from '@/server/db/client';

// Card-data discovery: which text, JSON and array columns of the service's tables hold any of
// the given values (e.g. PANs used in a test run), or a JSON field named like card data.
const FORBIDDEN_FIELDS = ['"pan"', '"security_code"', '"expiry_date"', '"cvv"'];

export type PciFinding = { table: string; column: string; rows: number; pattern: string };

export async function pciScan(prisma: Db, needles: string[]): Promise<{ columns: number; findings: PciFinding[] }> {
  const columns = await prisma.$queryRaw<{ table_name: string; column_name: string }[]>`
    SELECT table_name, column_name FROM information_schema.columns
    WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'
      AND data_type IN ('text', 'character varying', 'jsonb', 'json', 'ARRAY')
    ORDER BY table_name, column_name`;
  const patterns = [...needles.filter((needle) => needle.length >= 4), ...FORBIDDEN_FIELDS];
  const findings: PciFinding[] = [];
  for (const { table_name: table, column_name: column } of columns) {
    for (const pattern of patterns) {
      const like = `%${pattern.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
      const [row] = await prisma.$queryRawUnsafe<{ count: bigint }[]>(
        `SELECT count(*)::bigint AS count FROM "${table.replace(/"/g, '')}" WHERE "${column.replace(/"/g, '')}"::text LIKE $1`,
        like,
      );
      const rows = Number(row?.count ?? 0);
      if (rows > 0)
        findings.push({ table, column, rows, pattern: FORBIDDEN_FIELDS.includes(pattern) ? pattern : `${pattern.slice(0, 6)}…` });
    }
  }
  return { columns: columns.length, findings };
}
