'use client';

import { useFormatter, useTranslations } from 'next-intl';
import { useMethodLabel } from './states';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

const COLORS: Record<string, string> = {
  CARD: '#1d4ed8',
  YAPE: '#7c3aed',
  BANK_TRANSFER: '#0f766e',
  CUOTEALO: '#c2410c',
  PAGOEFECTIVO: '#a16207',
  QR: '#be185d',
};

/** A business day (`YYYY-MM-DD`) on an axis, day first as every date of the console: `01/12`. */
export const shortDay = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}`;
/** The same day in a tooltip, with its year: `01/12/2026`. */
const fullDay = (day: unknown) => (typeof day === 'string' ? `${shortDay(day)}/${day.slice(0, 4)}` : String(day));

export function VolumeByMethodChart({ data, methods }: { data: Record<string, string | number>[]; methods: string[] }) {
  const t = useTranslations('ui.charts');
  const methodLabel = useMethodLabel();
  const format = useFormatter();
  return (
    <figure aria-label={t('volume')}>
      <ResponsiveContainer width="100%" height={260}>
        <BarChart data={data}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="day" tickFormatter={shortDay} fontSize={12} />
          <YAxis fontSize={12} />
          <Tooltip formatter={(value) => `S/ ${format.number(Number(value), 'money')}`} labelFormatter={fullDay} />
          <Legend />
          {methods.map((method) => (
            <Bar
              key={method}
              dataKey={method}
              name={methodLabel(method)}
              stackId="volume"
              fill={COLORS[method] ?? '#475569'}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}

export function ApprovalRateChart({ data }: { data: { day: string; rate: number | null }[] }) {
  const t = useTranslations('ui.charts');
  const format = useFormatter();
  return (
    <figure aria-label={t('approval')}>
      <ResponsiveContainer width="100%" height={220}>
        <LineChart data={data}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="day" tickFormatter={shortDay} fontSize={12} />
          <YAxis domain={[0, 100]} unit="%" fontSize={12} />
          <Tooltip formatter={(value) => `${format.number(Number(value))} %`} labelFormatter={fullDay} />
          <Line
            type="monotone"
            dataKey="rate"
            stroke="#047857"
            connectNulls
            dot={{ r: 3 }}
            isAnimationActive={false}
            name={t('approvalSeries')}
          />
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}
