import type { ReactNode } from 'react';

/** A label and its value in a detail page's list (`<dl>`): side by side from the small breakpoint, stacked on a phone. */
export function Field({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5 sm:flex-row sm:gap-3">
      <dt className="shrink-0 text-slate-500 sm:w-48">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}
