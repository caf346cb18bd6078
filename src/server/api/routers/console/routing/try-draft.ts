import { tryDraft as tryIt } from '@/server/modules/routing/merchant-routing';
import { consoleProcedure } from '../../../trpc';
import { ofMerchantMethod } from './routing-fields';

/** Trying a draft changes nothing: any role that reads routing may. */
export const tryDraft = consoleProcedure.input(ofMerchantMethod).query(({ ctx, input }) => tryIt(ctx.prisma, ctx.scope, input));
