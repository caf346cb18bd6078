'use client';

import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import type { AppRouter } from '@/server/api/routers/app-router';

/** The console's browser client: same-origin tRPC with the session cookie. */
export const consoleClient = createTRPCClient<AppRouter>({ links: [httpLink({ url: '/api/trpc' })] });

/**
 * A failed call's message (the service's own text for a refused action); `fallback` for any
 * other failure. Components use useErrorMessage() (use-console-action.ts), which passes it in
 * the visitor's language.
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof TRPCClientError) {
    const data = error.data as { errors?: { message: string }[] } | undefined;
    return data?.errors?.map((item) => item.message).join('; ') || error.message;
  }
  return fallback;
}

/** The kind of a refused call (CONFLICT, NOT_FOUND, FORBIDDEN...), or null for any other failure. */
export function errorKind(error: unknown): string | null {
  if (!(error instanceof TRPCClientError)) return null;
  return (error.data as { kind?: string } | undefined)?.kind ?? null;
}
