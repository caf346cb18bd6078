import { tryDraft as tryIt } from '@/server/modules/routing/merchant-routing';
import { consoleProcedure } from '../../../trpc';
import { tryDraftInput } from './try-draft.types';

/** Trying a draft changes nothing: any role that reads routing may. */
export const tryDraft = consoleProcedure.input(tryDraftInput).query(({ ctx, input }) => tryIt(ctx.prisma, ctx.scope, input));
