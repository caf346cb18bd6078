import { getTransaction as transactionOf } from '@/server/modules/charges/get-transaction';
import { merchantProcedure } from '../../trpc';
import { getTransactionMeta, getTransactionInput, getTransactionOutput } from './get-transaction.types';

export const getTransaction = merchantProcedure('get:charges', getTransactionInput)
  .meta(getTransactionMeta)
  .output(getTransactionOutput)
  .query(({ ctx, input }) => transactionOf(ctx.prisma, ctx.merchant, input.merchant_operation_number, input.transaction_id));
