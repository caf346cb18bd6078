'use client';

import { useConsoleLang } from '../console-ui/lang-context';

const TEXT = {
  es: {
    title: 'No se pudo cargar esta página.',
    body: 'Puede ser un problema momentáneo. Vuelve a intentarlo; si sigue pasando, avísanos.',
    retry: 'Reintentar',
  },
  en: {
    title: 'This page could not be loaded.',
    body: 'It may be a passing problem. Try again; if it keeps happening, let us know.',
    retry: 'Try again',
  },
};

/** The error state of every console page: what happened, and a way to try again. */
export default function ConsoleError({ reset }: { error: Error; reset: () => void }) {
  const text = TEXT[useConsoleLang()];
  return (
    <div role="alert" className="space-y-3 rounded-lg border border-red-200 bg-red-50 p-4 text-red-900">
      <p className="font-semibold">{text.title}</p>
      <p className="text-sm">{text.body}</p>
      <button type="button" onClick={reset} className="rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm">
        {text.retry}
      </button>
    </div>
  );
}
