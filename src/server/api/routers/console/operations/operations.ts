import { toOperationFilters } from '@/server/modules/console/operations-filters';
import { listOperations, toOperationRowView } from '@/server/modules/console/list-operations';
import { consoleProcedure } from '../../../trpc';
import { operationFiltersInput } from '@/server/modules/console/operations-filters';

export const operations = consoleProcedure.input(operationFiltersInput).query(async ({ ctx, input }) => {
  const page = await listOperations(ctx.prisma, ctx.scope, toOperationFilters(input));
  return { nextCursor: page.nextCursor, rows: page.rows.map(toOperationRowView) };
});
