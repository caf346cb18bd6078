'use client';

import { TRPCClientError } from '@trpc/client';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import type { ConsoleLang } from './i18n';
import { useConsoleLang } from './lang-context';
import { errorMessage } from './trpc-client';

/** Texts for refusals a form expects, by the error item's code (own_user, last_admin…) or the kind (CONFLICT…). */
export type KnownErrors = Record<string, Record<ConsoleLang, string>>;

const GENERIC: KnownErrors = {
  VALIDATION: { es: 'Revisa los datos', en: 'Check the data' },
  FORBIDDEN: { es: 'Tu rol no permite este cambio.', en: 'Your role does not allow this change.' },
  NOT_FOUND: { es: 'No existe, o no pertenece a tu comercio.', en: 'It does not exist, or is not your merchant’s.' },
  UNAUTHENTICATED: { es: 'Tu sesión terminó: vuelve a ingresar.', en: 'Your session ended: sign in again.' },
};

function describe(failure: unknown, lang: ConsoleLang, known: KnownErrors): string {
  if (!(failure instanceof TRPCClientError)) return errorMessage(failure, lang);
  const data = failure.data as { kind?: string; errors?: { code: string }[] } | undefined;
  const code = data?.errors?.find((item) => known[item.code])?.code;
  if (code) return known[code]![lang];
  const kind = data?.kind ?? '';
  if (known[kind]) return known[kind][lang];
  // Validation: a localized lead and the service's own field messages.
  if (kind === 'VALIDATION') return `${GENERIC.VALIDATION![lang]}: ${errorMessage(failure, lang)}`;
  return GENERIC[kind]?.[lang] ?? errorMessage(failure, lang);
}

/**
 * One console action at a time: busy while it runs, the refusal in the visitor's language, and
 * the page rendered again on the server when it succeeds. Busy until hydrated too, so controls
 * that follow it are disabled until they work (a form sent before that would only reload the page).
 */
export function useConsoleAction(known: KnownErrors = {}) {
  const router = useRouter();
  const lang = useConsoleLang();
  const [busy, setBusy] = useState(true);
  useEffect(() => setBusy(false), []);
  const [error, setError] = useState<string | null>(null);
  /** `refresh: false` for a call that changes nothing (a query): a refresh started then could overtake the next action's. */
  function run<T>(call: () => Promise<T>, done?: (value: T) => void, { refresh = true }: { refresh?: boolean } = {}): void {
    setBusy(true);
    setError(null);
    call().then(
      (value) => {
        setBusy(false);
        done?.(value);
        if (refresh) router.refresh();
      },
      (failure: unknown) => {
        setBusy(false);
        setError(describe(failure, lang, known));
      },
    );
  }
  return { busy, error, setError, run };
}
