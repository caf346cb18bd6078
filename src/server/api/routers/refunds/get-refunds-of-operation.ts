import { getRefundsOfOperation as refundsOf } from '@/server/modules/refunds/list-refunds';
import { merchantProcedure } from '../../trpc';
import {
  getRefundsOfOperationMeta,
  getRefundsOfOperationInput,
  getRefundsOfOperationOutput,
} from './get-refunds-of-operation.types';

export const getRefundsOfOperation = merchantProcedure('get:charges', getRefundsOfOperationInput)
  .meta(getRefundsOfOperationMeta)
  .output(getRefundsOfOperationOutput)
  .query(({ ctx, input }) => refundsOf(ctx.prisma, ctx.merchant, input.merchant_operation_number));
