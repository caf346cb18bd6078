'use client';

import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import type { AppRouter } from '@/server/api/routers/app-router';
import type { ConsoleLang } from './i18n';

/** The console's browser client: same-origin tRPC with the session cookie. */
export const consoleClient = createTRPCClient<AppRouter>({ links: [httpLink({ url: '/api/trpc' })] });

/** A failed call's message (the service's own text for a refused action). */
export function errorMessage(error: unknown, lang: ConsoleLang = 'es'): string {
  if (error instanceof TRPCClientError) {
    const data = error.data as { errors?: { message: string }[] } | undefined;
    return data?.errors?.map((item) => item.message).join('; ') || error.message;
  }
  return lang === 'en' ? 'The action could not be completed.' : 'No se pudo completar la acción.';
}

/** The kind of a refused call (CONFLICT, NOT_FOUND, FORBIDDEN...), or null for any other failure. */
export function errorKind(error: unknown): string | null {
  if (!(error instanceof TRPCClientError)) return null;
  return (error.data as { kind?: string } | undefined)?.kind ?? null;
}
