import { updateThreeDs as update } from '@/server/modules/routing/merchant-routing';
import { consoleActProcedure } from '../../../trpc';
import { updateThreeDsInput } from './update-three-ds.types';

export const updateThreeDs = consoleActProcedure
  .input(updateThreeDsInput)
  .mutation(({ ctx, input }) => update(ctx.prisma, ctx.scope, input));
