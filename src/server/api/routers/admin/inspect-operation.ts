import { inspectOperation as inspect } from '@/server/modules/console/inspect-operation';
import { platformActProcedure } from '../../trpc';
import { inspectOperationInput } from './inspect-operation.types';

export const inspectOperation = platformActProcedure
  .input(inspectOperationInput)
  .query(({ ctx, input }) => inspect(ctx.prisma, input));
