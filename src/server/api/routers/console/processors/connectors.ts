import { processorsView } from '@/server/modules/processors/health/processors';
import { consoleProcedure } from '../../../trpc';

/** Every role sees the connectors and their state; only platform admins change a mode. */
export const connectors = consoleProcedure.query(({ ctx }) => processorsView(ctx.prisma));
