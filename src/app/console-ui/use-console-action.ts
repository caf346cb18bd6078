'use client';

import { TRPCClientError } from '@trpc/client';
import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { errorKind, errorMessage } from './trpc-client';

/** Texts for refusals a form expects (already in the visitor's language), by the error item's code (own_user, last_admin…) or the kind (CONFLICT…). */
export type KnownErrors = Record<string, string>;

/** A form's own refusal before anything is sent (a field the form checks itself): its text is shown as it is. */
export class FormProblem extends Error {}

type ActionMessages = ReturnType<typeof useTranslations<'ui.consoleAction'>>;

/**
 * A failed call in the visitor's language: a text the form expects for its code or kind, a
 * catalogue text for the kinds every action can meet (a role or a session that does not allow
 * it, the service busy or failed), or the service's own text for a refused action.
 */
export function describeFailure(failure: unknown, t: ActionMessages, known: KnownErrors): string {
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
      return busyOrFailed(kind, t) ?? service;
  }
}

/** Admission control or a database briefly away (503), too many requests (429), a fault (500): the service's text for these is English. */
function busyOrFailed(kind: string | null, t: ActionMessages): string | null {
  if (kind === 'UNAVAILABLE') return t('unavailable');
  if (kind === 'RATE_LIMITED') return t('rateLimited');
  if (kind === 'INTERNAL') return t('failed');
  return null;
}

/** The message of a failed call in the visitor's language: the service's own text, a catalogue one when it is busy or failed, or a generic one. */
export function useErrorMessage(): (failure: unknown) => string {
  const t = useTranslations('ui.consoleAction');
  return (failure) => busyOrFailed(errorKind(failure), t) ?? errorMessage(failure, t('failed'));
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
        setError(describeFailure(failure, t, known));
      },
    );
  }
  return { busy, error, setError, run };
}
