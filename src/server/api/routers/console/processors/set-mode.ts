import { setConnectorMode } from '@/server/modules/processors/health/processors';
import { platformActProcedure } from '../../../trpc';
import { setModeInput } from './set-mode.types';

export const setMode = platformActProcedure.input(setModeInput).mutation(({ ctx, input }) => setConnectorMode(ctx.prisma, input));
