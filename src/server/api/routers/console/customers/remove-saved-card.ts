import { removeSavedCard as remove } from '@/server/modules/console/customers';
import { consoleActProcedure } from '../../../trpc';
import { removeSavedCardInput } from './remove-saved-card.types';

/** Those who act for the merchant remove a card; the others only read. */
export const removeSavedCard = consoleActProcedure
  .input(removeSavedCardInput)
  .mutation(({ ctx, input }) => remove(ctx.prisma, ctx.scope, input.customerId, input.cardId));
