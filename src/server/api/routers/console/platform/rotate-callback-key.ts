import { rotateCallbackKey as rotate } from '@/server/modules/events/callbacks/signing-keys';
import { platformActProcedure } from '../../../trpc';
import { rotateCallbackKeyInput } from './rotate-callback-key.types';

/** A new callback signing key now; the old one stays published for the overlap. */
export const rotateCallbackKey = platformActProcedure.input(rotateCallbackKeyInput).mutation(async ({ ctx, input }) => {
  const rotated = await rotate(ctx.prisma, input.overlapDays);
  return { kid: rotated.kid, retired: rotated.retired, retiresAt: rotated.retiresAt.toISOString() };
});
