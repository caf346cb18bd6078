import { setConnectorEnabled } from '@/server/modules/processors/health/processors';
import { platformActProcedure } from '../../../trpc';
import { setEnabledInput } from './set-enabled.types';

export const setEnabled = platformActProcedure
  .input(setEnabledInput)
  .mutation(({ ctx, input }) => setConnectorEnabled(ctx.prisma, input));
