import { customerDetail as detailOf } from '@/server/modules/console/customers';
import { consoleProcedure } from '../../../trpc';
import { customerDetailInput } from './customer-detail.types';

export const customerDetail = consoleProcedure
  .input(customerDetailInput)
  .query(({ ctx, input }) => detailOf(ctx.prisma, ctx.scope, input.customerId));
