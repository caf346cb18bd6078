import { toOperationFilters } from '@/server/modules/console/operations-filters';
import { operationsWhere } from './list-operations';
import { operationsCsv } from './operations-csv';
import { csvDownload, MAX_EXPORT_ROWS, openExport, type ExportInput } from './csv';
import { operationsUrlFilters } from './operations-url';

// GET /operations/export?<the operations page's filters>: the whole filtered set as CSV, for
// any signed-in role within its merchants. Checks the session itself (the proxy only redirects).

export async function operationsExport(input: ExportInput): Promise<Response> {
  const maxRows = input.maxRows ?? MAX_EXPORT_ROWS;
  const opened = openExport('operations', input.lang, input.session, () => operationsUrlFilters(input.params));
  if (!opened.ok) return opened.response;
  const { scope } = opened;
  const filters = toOperationFilters(opened.filters);
  const count = await input.prisma.transaction.count({ where: operationsWhere(scope, filters) });
  if (count > maxRows) return opened.tooMany(count, maxRows);
  return csvDownload(operationsCsv(input.prisma, scope, filters, { maxRows }), 'operations', count, input.now ?? new Date());
}
