import type { CSSProperties, ReactNode } from 'react';

// The console's data tables: a caption for screen readers and one header row; the cell padding
// and the empty state go with them. Below Tailwind's sm breakpoint (40rem) each row is a card of
// labelled cells (globals.css, .data-table): the labels are the headers, passed as the custom
// properties --c1, --c2… so every column stays on screen without sideways scrolling. The box is
// a named region the keyboard can focus, so if a wide table still scrolls a keyboard user can
// scroll it too (axe's scrollable-region-focusable).
export const CELL = 'px-3 py-2 align-top';

export function EmptyState({ text }: { text: string }) {
  return <p className="rounded-md border border-dashed border-slate-300 p-4 text-center text-slate-600">{text}</p>;
}

/** A header label, or a label with options: `right` aligns a column of amounts, `wrap` lets it wrap. */
export type Column = string | { label: string; right?: true; wrap?: true };

/** The headers as CSS strings (--c1 for the first column…), the labels of a phone's cards. */
function columnLabels(columns: Column[]): CSSProperties {
  return Object.fromEntries(
    columns.map((column, index) => [`--c${index + 1}`, JSON.stringify(typeof column === 'string' ? column : column.label)]),
  );
}

export function DataTable({
  caption,
  columns,
  testId,
  headerClass,
  children,
}: {
  /** Names the table and its scrolling region for screen readers (often the section's heading). */
  caption: string;
  columns: Column[];
  testId?: string;
  /** Classes added to every header cell. */
  headerClass?: string;
  children: ReactNode;
}) {
  return (
    <div
      role="region"
      aria-label={caption}
      tabIndex={0}
      className="data-table overflow-x-auto rounded-lg border border-slate-200 bg-white focus:outline-none focus-visible:ring-4 focus-visible:ring-slate-300"
      data-testid={testId}
    >
      <table className="min-w-full text-sm" style={columnLabels(columns)}>
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-left text-slate-600">
          <tr>
            {columns.map((column) => {
              const { label, right, wrap } = typeof column === 'string' ? { label: column } : column;
              const classes = ['px-3 py-2', headerClass, wrap ? '' : 'whitespace-nowrap', right ? 'text-right' : ''];
              return (
                <th key={label} scope="col" className={classes.filter(Boolean).join(' ')}>
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
