'use client';

/** The error state of every console page: what happened, and a way to try again. */
export default function ConsoleError({ reset }: { error: Error; reset: () => void }) {
  return (
    <div role="alert" className="space-y-3 rounded-lg border border-red-200 bg-red-50 p-4 text-red-900">
      <p className="font-semibold">No se pudo cargar esta página.</p>
      <p className="text-sm">Puede ser un problema momentáneo. Vuelve a intentarlo; si sigue pasando, avísanos.</p>
      <button type="button" onClick={reset} className="rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm">
        Reintentar
      </button>
    </div>
  );
}
