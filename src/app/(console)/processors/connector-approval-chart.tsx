'use client';

import { useFormatter } from 'next-intl';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

const COLORS = ['#1d4ed8', '#7c3aed', '#0f766e', '#c2410c', '#a16207', '#be185d', '#475569'];

type Point = { connector: string; at: string; decided: number; approved: number };

/** Approval rate per connector over time (docs/ORCHESTRATION.md 4): approved of decided attempts, one line per connector, in percent; no point where nothing was decided. */
export function ConnectorApprovalChart({
  points,
  bucket,
  title,
  names,
}: {
  points: Point[];
  bucket: 'hour' | 'day';
  title: string;
  /** How the legend names a connector (the catalogue's name of a sandbox connector); its id otherwise. */
  names: Record<string, string>;
}) {
  const connectors = [...new Set(points.map((point) => point.connector))];
  const rows = new Map<string, Record<string, string | number>>();
  for (const point of points) {
    const row = rows.get(point.at) ?? { at: point.at };
    if (point.decided > 0) row[point.connector] = Math.round((1000 * point.approved) / point.decided) / 10;
    rows.set(point.at, row);
  }
  // The console's one clock and date order: the business time zone is the formatter's, day first.
  const format = useFormatter();
  const label = (at: string) =>
    format.dateTime(
      new Date(at),
      bucket === 'hour' ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } : { day: '2-digit', month: '2-digit' },
    );
  return (
    <figure aria-label={title}>
      <figcaption className="text-sm text-slate-600">{title}</figcaption>
      <ResponsiveContainer width="100%" height={240}>
        <LineChart data={[...rows.values()]}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="at" tickFormatter={label} fontSize={12} />
          <YAxis domain={[0, 100]} unit="%" fontSize={12} />
          <Tooltip
            formatter={(value) => `${format.number(Number(value))} %`}
            labelFormatter={(at) =>
              typeof at === 'string'
                ? bucket === 'hour'
                  ? format.dateTime(new Date(at), 'business')
                  : format.dateTime(new Date(at), { day: '2-digit', month: '2-digit', year: 'numeric' })
                : at
            }
          />
          <Legend />
          {connectors.map((connector, index) => (
            <Line
              key={connector}
              type="monotone"
              dataKey={connector}
              name={names[connector] ?? connector}
              stroke={COLORS[index % COLORS.length]}
              connectNulls
              dot={{ r: 2 }}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}
