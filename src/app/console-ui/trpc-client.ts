'use client';

import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import type { AppRouter } from '@/server/api/routers/app-router';

/** The console's browser client: same-origin tRPC with the session cookie. */
export const consoleClient = createTRPCClient<AppRouter>({ links: [httpLink({ url: '/api/trpc' })] });

export function errorMessage(error: unknown): string {
  if (error instanceof TRPCClientError) {
    const data = error.data as { errors?: { message: string }[] } | undefined;
    return data?.errors?.map((item) => item.message).join('; ') || error.message;
  }
  return 'No se pudo completar la acción.';
}
