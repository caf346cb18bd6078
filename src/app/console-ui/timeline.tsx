import { useFormatter } from 'next-intl';
import { businessTime } from './format';
import { StateBadge } from './states';

/**
 * A lifecycle as a timeline: each state (with the API's name, for matching logs) at its time in the
 * business time zone, the UTC instant on hover.
 */
export function Timeline({ label, entries }: { label: string; entries: { state: string; iso: string }[] }) {
  const format = useFormatter();
  return (
    <ol className="relative ml-2 border-l border-slate-300" aria-label={label}>
      {entries.map((entry, index) => (
        <li key={index} className="mb-3 ml-4 flex flex-wrap items-center gap-2">
          <span className="absolute -left-1.5 h-3 w-3 rounded-full border border-white bg-slate-400" aria-hidden />
          <StateBadge state={entry.state} apiValue />
          <time dateTime={entry.iso} title={`UTC ${entry.iso}`} className="text-sm text-slate-700">
            {businessTime(format, entry.iso)}
          </time>
        </li>
      ))}
    </ol>
  );
}
