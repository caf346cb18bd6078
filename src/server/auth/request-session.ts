import { getToken } from 'next-auth/jwt';
import { NextRequest } from 'next/server';
import { consoleSessionOf } from './console-auth';
import type { ConsoleSession } from './console-session';

/** The console user of a request's session cookie (headers only: the body stays unread). */
export async function consoleSessionOfRequest(request: Request): Promise<ConsoleSession | null> {
  const token = await getToken({
    req: new NextRequest(request.url, { headers: request.headers }),
    secret: process.env.NEXTAUTH_SECRET,
  });
  return consoleSessionOf(token);
}
