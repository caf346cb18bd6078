import { verifyAndSaveCard } from '@/server/modules/charges/verify-card';
import { merchantProcedure } from '../../trpc';
import { verifyCardInput, verifyCardMeta, verifyCardOutput } from './verify-card.types';

export const saveCard = merchantProcedure('post:customers', verifyCardInput)
  .meta(verifyCardMeta)
  .output(verifyCardOutput)
  .mutation(({ ctx, input }) => verifyAndSaveCard(ctx.prisma, ctx.merchant, input));
