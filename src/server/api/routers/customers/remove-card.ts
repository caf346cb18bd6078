import { removeCard as remove } from '@/server/modules/customers/customers';
import { merchantProcedure } from '../../trpc';
import { removeCardInput, removeCardMeta, removeCardOutput } from './remove-card.types';

export const removeCard = merchantProcedure('delete:customers', removeCardInput)
  .meta(removeCardMeta)
  .output(removeCardOutput)
  .mutation(({ ctx, input }) => remove(ctx.prisma, ctx.merchant, input.customer_id, input.card_id));
