'use client';

import { useState } from 'react';

export function CopyButton({
  value,
  label,
  copiedLabel,
  manualLabel,
}: {
  value: string;
  label: string;
  copiedLabel: string;
  manualLabel: string;
}) {
  const [status, setStatus] = useState<'idle' | 'copied' | 'manual'>('idle');
  return (
    <>
      <button
        type="button"
        className="rounded-md border border-slate-300 px-3 py-1 text-sm font-medium text-slate-800 hover:bg-slate-100 focus:outline-none focus-visible:ring-4 focus-visible:ring-slate-300"
        onClick={() => {
          if (!navigator.clipboard) {
            setStatus('manual');
            return;
          }
          navigator.clipboard.writeText(value).then(
            () => setStatus('copied'),
            () => setStatus('manual'),
          );
        }}
      >
        {status === 'copied' ? copiedLabel : label}
      </button>
      <span className="sr-only" aria-live="polite">
        {status === 'copied' ? copiedLabel : ''}
      </span>
      {status === 'manual' ? (
        <p className="mt-1 text-sm text-slate-700" aria-live="polite">
          {manualLabel}
        </p>
      ) : null}
    </>
  );
}
