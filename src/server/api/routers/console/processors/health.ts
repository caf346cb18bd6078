import { processorHealth } from '@/server/modules/processors/health/processors';
import { consoleProcedure } from '../../../trpc';
import { healthInput } from './health.types';

export const health = consoleProcedure
  .input(healthInput)
  .query(({ ctx, input }) => processorHealth(ctx.prisma, ctx.scope, input.window));
