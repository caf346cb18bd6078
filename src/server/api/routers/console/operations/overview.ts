import { overview as overviewOf } from '@/server/services/console/overview';
import { consoleProcedure } from '../../../trpc';

export const overview = consoleProcedure.query(({ ctx }) => overviewOf(ctx.prisma, ctx.scope));
