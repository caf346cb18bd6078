import type { Db, Tx } from '@/server/platform/db/client';
import type { ConsoleSession } from './console-session';
import { isUuid } from '@/server/core/domain/uuid';

/**
 * A session cookie is only as good as its user today: a disabled or deleted user's session stops
 * working at its next request, and so does one of a generation the user has left (signed out,
 * role changed); a changed merchant applies at once (one primary-key read).
 */
export async function liveConsoleSession(prisma: Db, session: ConsoleSession | null): Promise<ConsoleSession | null> {
  if (!session?.userId || !isUuid(session.userId)) return null;
  const user = await prisma.consoleUser.findUnique({
    where: { id: session.userId },
    select: { email: true, role: true, merchantId: true, disabledAt: true, sessionGeneration: true },
  });
  if (!user || user.disabledAt || (session.generation ?? 0) !== user.sessionGeneration) return null;
  const { email, role, merchantId, sessionGeneration: generation } = user;
  return { userId: session.userId, email, role, merchantId, generation };
}

/** Ends every session of a user, in every instance, at its next request. */
export async function endSessions(prisma: Db | Tx, userId: string): Promise<void> {
  await prisma.consoleUser.updateMany({ where: { id: userId }, data: { sessionGeneration: { increment: 1 } } });
}
