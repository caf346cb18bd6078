import { callbackKeys } from '@/server/modules/events/callbacks/signing-keys';
import { platformProcedure } from '../../../trpc';

/** The keys callbacks may be signed with now: the active one and any still in their overlap. */
export const callbackKeysList = platformProcedure.query(async ({ ctx }) => {
  const { active, published, configured } = await callbackKeys(ctx.prisma);
  return {
    configured,
    keys: published.map((key) => ({
      kid: key.kid,
      active: key.kid === active.kid,
      createdAt: key.createdAt.toISOString(),
      retiresAt: key.retiresAt?.toISOString() ?? null,
    })),
  };
});
