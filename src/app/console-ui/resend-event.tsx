'use client';

import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { consoleClient, errorKind } from './trpc-client';
import { useErrorMessage } from './use-console-action';

/** Sends a callback event again now; shows the attempt it made, then refreshes the page's list. */
export function ResendEvent({ eventId, type }: { eventId: string; type: string }) {
  const errorText = useErrorMessage();
  const t = useTranslations('ui.resendEvent');
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  return (
    <div className="space-y-1">
      <button
        type="button"
        disabled={busy}
        aria-label={t('label', { type })}
        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-xs font-medium hover:bg-slate-100 focus:outline-none focus-visible:ring-4 focus-visible:ring-slate-300 disabled:opacity-60"
        onClick={() => {
          setBusy(true);
          setResult(null);
          consoleClient.console.resendEvent.mutate({ eventId }).then(
            ({ attempt }) => {
              const status = attempt.statusCode === null ? t('noAnswer') : String(attempt.statusCode);
              const error = attempt.error ? ` · ${attempt.error}` : '';
              setResult({
                ok: true,
                message: `${t('sent', { number: attempt.number, status, latency: attempt.latencyMs })}${error}`,
              });
              setBusy(false);
              router.refresh();
            },
            (failure: unknown) => {
              setResult({ ok: false, message: errorKind(failure) === 'CONFLICT' ? t('busy') : errorText(failure) });
              setBusy(false);
            },
          );
        }}
      >
        {busy ? t('sending') : t('resend')}
      </button>
      {result ? (
        <p role={result.ok ? 'status' : 'alert'} className={`text-xs ${result.ok ? 'text-emerald-800' : 'text-red-800'}`}>
          {result.message}
        </p>
      ) : null}
    </div>
  );
}
