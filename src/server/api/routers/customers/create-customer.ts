import { createCustomer as create } from '@/server/modules/customers/customers';
import { merchantProcedure } from '../../trpc';
import { createCustomerInput, createCustomerMeta, createCustomerOutput } from './create-customer.types';

export const createCustomer = merchantProcedure('post:customers', createCustomerInput)
  .meta(createCustomerMeta)
  .output(createCustomerOutput)
  .mutation(({ ctx, input }) => create(ctx.prisma, ctx.merchant, input));
