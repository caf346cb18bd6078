import { operationDetail } from '@/server/modules/console/operation-detail';
import { consoleProcedure } from '../../../trpc';
import { operationInput } from './operation.types';

export const operation = consoleProcedure
  .input(operationInput)
  .query(({ ctx, input }) => operationDetail(ctx.prisma, ctx.scope, input.transactionId));
