import { getCustomer as customerWithCards } from '@/server/modules/customers/customers';
import { merchantProcedure } from '../../trpc';
import { getCustomerInput, getCustomerMeta, getCustomerOutput } from './get-customer.types';

export const getCustomer = merchantProcedure('get:customers', getCustomerInput)
  .meta(getCustomerMeta)
  .output(getCustomerOutput)
  .query(({ ctx, input }) => customerWithCards(ctx.prisma, ctx.merchant, input.customer_id));
