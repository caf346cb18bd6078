import { searchCustomers } from '@/server/modules/console/customers';
import { consoleProcedure } from '../../../trpc';
import { customersInput } from './customers.types';

export const customers = consoleProcedure
  .input(customersInput)
  .query(({ ctx, input }) => searchCustomers(ctx.prisma, ctx.scope, input.q ?? ''));
