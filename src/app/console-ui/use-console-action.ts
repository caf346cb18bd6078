'use client';

import { TRPCClientError } from '@trpc/client';
import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { errorMessage } from './trpc-client';

/** Texts for refusals a form expects (already in the visitor's language), by the error item's code (own_user, last_admin…) or the kind (CONFLICT…). */
export type KnownErrors = Record<string, string>;

/** A form's own refusal before anything is sent (a field the form checks itself): its text is shown as it is. */
export class FormProblem extends Error {}

/** The message of a failed call in the visitor's language: the service's own text, or a generic one. */
export function useErrorMessage(): (failure: unknown) => string {
  const t = useTranslations('ui.consoleAction');
  return (failure) => errorMessage(failure, t('failed'));
}

/**
 * One console action at a time: busy while it runs, the refusal in the visitor's language, and
 * the page rendered again on the server when it succeeds. Busy until hydrated too, so controls
 * that follow it are disabled until they work (a form sent before that would only reload the page).
 */
export function useConsoleAction(known: KnownErrors = {}) {
  const router = useRouter();
  const t = useTranslations('ui.consoleAction');
  const [busy, setBusy] = useState(true);
  useEffect(() => setBusy(false), []);
  const [error, setError] = useState<string | null>(null);

  function describe(failure: unknown): string {
    if (failure instanceof FormProblem) return failure.message;
    const service = errorMessage(failure, t('failed'));
    if (!(failure instanceof TRPCClientError)) return service;
    const data = failure.data as { kind?: string; errors?: { code: string }[] } | undefined;
    const code = data?.errors?.find((item) => known[item.code])?.code;
    if (code) return known[code]!;
    const kind = data?.kind ?? '';
    if (known[kind]) return known[kind];
    switch (kind) {
      // Validation: a localized lead and the service's own field messages.
      case 'VALIDATION':
        return `${t('validation')}: ${service}`;
      case 'FORBIDDEN':
        return t('forbidden');
      case 'NOT_FOUND':
        return t('notFound');
      case 'UNAUTHENTICATED':
        return t('unauthenticated');
      default:
        return service;
    }
  }

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
        setError(describe(failure));
      },
    );
  }
  return { busy, error, setError, run };
}
