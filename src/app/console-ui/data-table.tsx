import type { ReactNode } from 'react';

// A console table: scrolls sideways inside its frame on a phone, with a caption for screen readers.
export const CELL = 'px-3 py-2 align-top';

export function EmptyState({ text }: { text: string }) {
  return <p className="rounded-md border border-dashed border-slate-300 p-4 text-center text-slate-600">{text}</p>;
}

export function DataTable({ caption, headers, children }: { caption: string; headers: string[]; children: ReactNode }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200">
      <table className="min-w-full text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-left text-slate-600">
          <tr>
            {headers.map((label) => (
              <th key={label} scope="col" className={CELL}>
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
