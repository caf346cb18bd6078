import { settleNow as settle } from '@/server/modules/charges/settle-now';
import { platformActProcedure } from '../../../trpc';
import { settleNowInput } from './settle-now.types';

/** The settlement cut-off now, for every merchant, the one named or the transactions named. */
export const settleNow = platformActProcedure.input(settleNowInput).mutation(({ ctx, input }) => settle(ctx.prisma, input));
