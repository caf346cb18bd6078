import { createFacilitator as create } from '@/server/modules/merchants/merchants';
import { platformActProcedure } from '../../../trpc';
import { createFacilitatorInput } from './create-facilitator.types';

export const createFacilitator = platformActProcedure
  .input(createFacilitatorInput)
  .mutation(({ ctx, input }) => create(ctx.prisma, input));
