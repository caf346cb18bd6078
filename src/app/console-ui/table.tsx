import type { ReactNode } from 'react';

// The console's data tables: a box that scrolls sideways on a phone, a caption for screen
// readers, and one header row; the cell padding and the empty state go with them.
export const CELL = 'px-3 py-2 align-top';

export function EmptyState({ text }: { text: string }) {
  return <p className="rounded-md border border-dashed border-slate-300 p-4 text-center text-slate-600">{text}</p>;
}

export function DataTable({
  caption,
  columns,
  testId,
  children,
}: {
  caption: string;
  /** Header labels; `right` aligns a column of amounts. */
  columns: (string | { label: string; right: true })[];
  testId?: string;
  children: ReactNode;
}) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white" data-testid={testId}>
      <table className="min-w-full text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-left text-slate-600">
          <tr>
            {columns.map((column) => {
              const label = typeof column === 'string' ? column : column.label;
              const align = typeof column === 'string' ? '' : 'text-right';
              return (
                <th key={label} scope="col" className={`px-3 py-2 whitespace-nowrap ${align}`}>
                  {label}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
