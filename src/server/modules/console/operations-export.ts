import type { ConsoleSession } from '@/server/modules/access/console-session';
import type { Db } from '@/server/platform/db/client';
import { isAppError } from '@/server/core/domain/errors';
import { toOperationFilters } from '@/server/modules/console/operations-filters';
import { operationsWhere } from './list-operations';
import { scopeOf } from '@/server/modules/access/merchant-scope';
import { operationsCsv } from './operations-csv';
import { csvDownload, csvRefusal as refusal, MAX_EXPORT_ROWS } from './csv';
import { operationsUrlFilters } from './operations-url';

// GET /operations/export?<the operations page's filters>: the whole filtered set as CSV, for
// any signed-in role within its merchants. Checks the session itself (the proxy only redirects).
const TEXT = {
  es: {
    signIn: 'Inicia sesión en la consola para exportar operaciones.',
    forbidden: 'Tu usuario no tiene un comercio asignado.',
    invalid: (names: string) =>
      `Los filtros no son válidos (${names}). Corrígelos en la página de operaciones y vuelve a exportar.`,
    tooMany: (count: number, max: number) =>
      `Hay ${count} operaciones con estos filtros y la exportación admite hasta ${max}. Acota las fechas u otros filtros.`,
  },
  en: {
    signIn: 'Sign in to the console to export operations.',
    forbidden: 'Your user has no merchant.',
    invalid: (names: string) => `The filters are not valid (${names}). Fix them on the operations page and export again.`,
    tooMany: (count: number, max: number) =>
      `${count} operations match these filters and an export holds at most ${max}. Narrow the dates or other filters.`,
  },
};

export async function operationsExport(input: {
  prisma: Db;
  session: ConsoleSession | null;
  params: Record<string, string | undefined>;
  lang: 'es' | 'en';
  now?: Date;
  maxRows?: number;
}): Promise<Response> {
  const text = TEXT[input.lang];
  const maxRows = input.maxRows ?? MAX_EXPORT_ROWS;
  if (!input.session) return refusal(401, text.signIn);
  const url = operationsUrlFilters(input.params);
  if (!url.ok) return refusal(400, text.invalid(url.invalid.join(', ')));
  let scope;
  try {
    scope = scopeOf(input.session);
  } catch (error) {
    if (isAppError(error)) return refusal(error.status, text.forbidden);
    throw error;
  }
  const filters = toOperationFilters(url.filters);
  const count = await input.prisma.transaction.count({ where: operationsWhere(scope, filters) });
  if (count > maxRows) return refusal(422, text.tooMany(count, maxRows));
  return csvDownload(operationsCsv(input.prisma, scope, filters, { maxRows }), 'operations', count, input.now ?? new Date());
}
