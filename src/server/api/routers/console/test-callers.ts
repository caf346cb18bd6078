import type { Db } from '@/server/db/client';
import type { ConsoleSession } from '@/server/auth/console-session';
import { appRouter } from '../app-router';
import { createCallerFactory } from '../../trpc';

// For the console procedure tests: callers as a console user (or signed out), in-process.
export function consoleCallerOf(prisma: Db, session?: ConsoleSession) {
  return createCallerFactory(appRouter)({ headers: new Headers(), requestId: 't', prisma, session });
}

export function sessionAs(role: ConsoleSession['role'], merchantId: string | null): ConsoleSession {
  return { userId: `user-${role}`, email: `${role.toLowerCase()}@test.pe`, role, merchantId };
}
