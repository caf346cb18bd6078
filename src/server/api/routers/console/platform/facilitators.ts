import { listFacilitators } from '@/server/services/console/platform-directory';
import { platformProcedure } from '../../../trpc';

export const facilitators = platformProcedure.query(({ ctx }) => listFacilitators(ctx.prisma));
