import type { Db } from '@/server/platform/db/client';
import type { ConsoleSession } from './console-session';
import { isUuid } from '@/server/core/domain/uuid';

/**
 * A session cookie is only as good as its user today: a disabled or deleted user's session stops
 * working at its next request, and a changed role or merchant applies at once (one primary-key read).
 */
export async function liveConsoleSession(prisma: Db, session: ConsoleSession | null): Promise<ConsoleSession | null> {
  if (!session?.userId || !isUuid(session.userId)) return null;
  const user = await prisma.consoleUser.findUnique({
    where: { id: session.userId },
    select: { email: true, role: true, merchantId: true, disabledAt: true },
  });
  if (!user || user.disabledAt) return null;
  return { userId: session.userId, email: user.email, role: user.role, merchantId: user.merchantId };
}
