import { overview as overviewOf } from '@/server/modules/console/overview';
import { consoleProcedure } from '../../../trpc';

export const overview = consoleProcedure.query(({ ctx }) => overviewOf(ctx.prisma, ctx.scope));
