import { secretScan as scan } from '@/server/modules/console/secret-scan';
import { platformActProcedure } from '../../trpc';
import { secretScanInput } from './secret-scan.types';

export const secretScan = platformActProcedure.input(secretScanInput).query(({ ctx, input }) => scan(ctx.prisma, input));
