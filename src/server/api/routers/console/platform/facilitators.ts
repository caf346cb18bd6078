import { listFacilitators } from '@/server/modules/merchants/platform-directory';
import { platformProcedure } from '../../../trpc';

export const facilitators = platformProcedure.query(({ ctx }) => listFacilitators(ctx.prisma));
