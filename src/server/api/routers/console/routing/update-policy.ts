import { updatePolicy as update } from '@/server/modules/routing/merchant-routing';
import { consoleActProcedure } from '../../../trpc';
import { updatePolicyInput } from './update-policy.types';

export const updatePolicy = consoleActProcedure
  .input(updatePolicyInput)
  .mutation(({ ctx, input }) => update(ctx.prisma, ctx.scope, input));
