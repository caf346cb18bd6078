import { getServerSession } from 'next-auth';
import { redirect } from 'next/navigation';
import { consoleAuthOptions, consoleSessionOf } from '@/server/modules/access/console-auth';
import type { ConsoleSession } from '@/server/modules/access/console-session';
import { liveConsoleSession } from '@/server/modules/access/live-session';
import { db } from '@/server/platform/db/client';
import { appRouter } from '@/server/api/routers/app-router';
import { createCallerFactory } from '@/server/api/trpc';

/** The signed-in console user of a server-rendered page (to the login page when there is none, or it was disabled). */
export async function requireConsoleSession(): Promise<ConsoleSession> {
  const session = await getServerSession(consoleAuthOptions());
  const user = session?.user as
    { id?: unknown; role?: unknown; merchantId?: unknown; email?: unknown; generation?: unknown } | undefined;
  const consoleSession = await liveConsoleSession(
    await db(),
    consoleSessionOf(
      user
        ? { uid: user.id, role: user.role, merchantId: user.merchantId, email: user.email, generation: user.generation }
        : null,
    ),
  );
  if (!consoleSession) redirect('/login');
  return consoleSession;
}

/** Server-rendered pages call the same procedures as the browser, as the signed-in user. */
export async function consoleCaller(session: ConsoleSession) {
  return createCallerFactory(appRouter)({ headers: new Headers(), requestId: 'page', prisma: await db(), session });
}
