'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { consoleClient, errorKind, errorMessage } from './trpc-client';
import { useConsoleLang } from './lang-context';

const TEXT = {
  es: {
    resend: 'Reenviar',
    label: (type: string) => `Reenviar ${type}`,
    sending: 'Enviando…',
    sent: (number: number, status: string, latency: number) => `Intento #${number} (manual): ${status} · ${latency} ms`,
    noAnswer: 'sin respuesta',
    busy: 'Esta notificación se está entregando en este momento. Espera unos segundos y vuelve a intentarlo.',
  },
  en: {
    resend: 'Resend',
    label: (type: string) => `Resend ${type}`,
    sending: 'Sending…',
    sent: (number: number, status: string, latency: number) => `Attempt #${number} (manual): ${status} · ${latency} ms`,
    noAnswer: 'no answer',
    busy: 'This notification is being delivered right now. Wait a few seconds and try again.',
  },
};

/** Sends a callback event again now; shows the attempt it made, then refreshes the page's list. */
export function ResendEvent({ eventId, type }: { eventId: string; type: string }) {
  const lang = useConsoleLang();
  const text = TEXT[lang];
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  return (
    <div className="space-y-1">
      <button
        type="button"
        disabled={busy}
        aria-label={text.label(type)}
        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-xs font-medium hover:bg-slate-100 focus:outline-none focus-visible:ring-4 focus-visible:ring-slate-300 disabled:opacity-60"
        onClick={() => {
          setBusy(true);
          setResult(null);
          consoleClient.console.resendEvent.mutate({ eventId }).then(
            ({ attempt }) => {
              const status = attempt.statusCode === null ? text.noAnswer : String(attempt.statusCode);
              const error = attempt.error ? ` · ${attempt.error}` : '';
              setResult({ ok: true, message: `${text.sent(attempt.number, status, attempt.latencyMs)}${error}` });
              setBusy(false);
              router.refresh();
            },
            (failure: unknown) => {
              setResult({ ok: false, message: errorKind(failure) === 'CONFLICT' ? text.busy : errorMessage(failure, lang) });
              setBusy(false);
            },
          );
        }}
      >
        {busy ? text.sending : text.resend}
      </button>
      {result ? (
        <p role={result.ok ? 'status' : 'alert'} className={`text-xs ${result.ok ? 'text-emerald-800' : 'text-red-800'}`}>
          {result.message}
        </p>
      ) : null}
    </div>
  );
}
