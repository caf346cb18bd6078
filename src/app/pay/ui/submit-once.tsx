'use client';

import { useState, type ReactNode } from 'react';

/** A form whose submit button disables itself after the first click (the server refuses a second payment anyway). */
export function SubmitOnce({
  action,
  label,
  tone,
  children,
}: {
  action: string;
  label: string;
  tone: 'primary' | 'secondary';
  children?: ReactNode;
}) {
  const [sent, setSent] = useState(false);
  const style =
    tone === 'primary'
      ? 'w-full rounded-lg bg-emerald-700 px-4 py-3 text-base font-semibold text-white hover:bg-emerald-800 focus:outline-none focus-visible:ring-4 focus-visible:ring-emerald-300 disabled:opacity-60'
      : 'w-full rounded-lg border border-slate-300 bg-white px-4 py-3 text-base font-medium text-slate-800 hover:bg-slate-100 focus:outline-none focus-visible:ring-4 focus-visible:ring-slate-300 disabled:opacity-60';
  return (
    <form method="post" action={action} onSubmit={() => setSent(true)} className="space-y-3">
      {children}
      <button type="submit" className={style} disabled={sent} aria-busy={sent}>
        {label}
      </button>
    </form>
  );
}
