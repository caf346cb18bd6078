import { getToken } from 'next-auth/jwt';
import { NextRequest } from 'next/server';
import { sessionSecret } from '@/env';
import type { Db } from '@/server/platform/db/client';
import { consoleSessionOf } from './console-auth';
import type { ConsoleSession } from './console-session';
import { liveConsoleSession } from './live-session';

/** The console user of a request's session cookie, as the database has it now (headers only: the body stays unread). */
export async function consoleSessionOfRequest(request: Request, prisma: Db): Promise<ConsoleSession | null> {
  const token = await getToken({
    req: new NextRequest(request.url, { headers: request.headers }),
    secret: sessionSecret(),
  });
  return liveConsoleSession(prisma, consoleSessionOf(token));
}
