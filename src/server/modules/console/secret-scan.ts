import type { Db } from '@/server/platform/db/client';
import { FindingCollector, type KnownValues, type SecretFinding } from '@/server/platform/security/secret-scanner';

// Secret discovery in the service's tables: every text, JSON, array and bytea column of every
// table, each stored value read as text (bytea with non-printable bytes escaped) and given to the
// secret scanner, with the values a test run sent (its PANs, passwords, client secrets). The vault
// (vault_records: saved cards and the cards of payments waiting for their challenge) is scanned
// like any table: its bytea holds only ciphertext, so a card found there was stored in clear.
export type TableScan = { tables: number; columns: number; findings: SecretFinding[] };

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

export async function secretScan(prisma: Db, known: KnownValues): Promise<TableScan> {
  const columns = await prisma.$queryRaw<{ table_name: string; column_name: string; data_type: string }[]>`
    SELECT table_name, column_name, data_type FROM information_schema.columns
    WHERE table_schema = 'public' AND table_name <> '_prisma_migrations' 
      AND data_type IN ('text', 'character varying', 'jsonb', 'json', 'ARRAY', 'bytea')
    ORDER BY table_name, column_name`;
  const collector = new FindingCollector();
  for (const { table_name: table, column_name: column, data_type: type } of columns) {
    const text = type === 'bytea' ? `encode(${quoted(column)}, 'escape')` : `${quoted(column)}::text`;
    const rows = await prisma.$queryRawUnsafe<{ value: string }[]>(
      `SELECT ${text} AS value FROM ${quoted(table)} WHERE ${quoted(column)} IS NOT NULL`,
    );
    for (const { value } of rows) collector.add(table, { column }, value, known);
  }
  return { tables: new Set(columns.map((each) => each.table_name)).size, columns: columns.length, findings: collector.list() };
}
