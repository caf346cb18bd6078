import { toOperationFilters } from '@/server/modules/console/operations-filters';
import {
  countOperations,
  listOperations,
  prepareOperationFilters,
  toOperationRowView,
} from '@/server/modules/console/list-operations';
import { consoleProcedure } from '../../../trpc';
import { operationFiltersInput } from '@/server/modules/console/operations-filters';

/** The table's total is counted this far; past it the page says "more than" (docs/DECISIONS.md). */
export const OPERATIONS_COUNT_CAP = 1000;

export const operations = consoleProcedure.input(operationFiltersInput).query(async ({ ctx, input }) => {
  // The merchant and an email search's candidates are looked up once for the page and its count.
  const filters = await prepareOperationFilters(ctx.prisma, ctx.scope, toOperationFilters(input));
  if (!filters) return { nextCursor: null, prevCursor: null, total: { count: 0, more: false }, rows: [] };
  const [page, total] = await Promise.all([
    listOperations(ctx.prisma, ctx.scope, filters),
    countOperations(ctx.prisma, ctx.scope, filters, OPERATIONS_COUNT_CAP),
  ]);
  return { nextCursor: page.nextCursor, prevCursor: page.prevCursor, total, rows: page.rows.map(toOperationRowView) };
});
