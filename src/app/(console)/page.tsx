import type { Metadata } from 'next';
import Link from 'next/link';
import { consoleCaller, requireConsoleSession } from '@/server/api/console-caller';
import { ApprovalRateChart, VolumeByMethodChart } from '../console-ui/charts';
import { businessTime, money, StateBadge } from '../console-ui/format';
import { consoleLang } from '../console-ui/lang-server';
import { businessZone } from '../console-ui/zone-server';

const TEXT = {
  es: {
    title: 'Resumen — consola de pagos',
    heading: 'Resumen',
    indicators: 'Indicadores',
    windows: { today: 'Hoy', '7d': 'Últimos 7 días', '30d': 'Últimos 30 días' } as Record<string, string>,
    operations: 'operaciones',
    approval: 'Aprobación (30 días)',
    pending: 'pendientes',
    refunds: 'reembolsos',
    volumeChart: 'Volumen aprobado por día y medio (S/)',
    approvalChart: 'Tasa de aprobación por día',
    latest: 'Últimas operaciones',
    none: 'Aún no hay operaciones.',
  },
  en: {
    title: 'Overview — payments console',
    heading: 'Overview',
    indicators: 'Indicators',
    windows: { today: 'Today', '7d': 'Last 7 days', '30d': 'Last 30 days' } as Record<string, string>,
    operations: 'operations',
    approval: 'Approval (30 days)',
    pending: 'pending',
    refunds: 'refunds',
    volumeChart: 'Approved volume per day and method (S/)',
    approvalChart: 'Approval rate per day',
    latest: 'Latest operations',
    none: 'No operations yet.',
  },
};

export async function generateMetadata(): Promise<Metadata> {
  return { title: TEXT[await consoleLang()].title };
}

export default async function OverviewPage() {
  const [session, lang] = await Promise.all([requireConsoleSession(), consoleLang()]);
  const text = TEXT[lang];
  const caller = await consoleCaller(session);
  const [summary, latest] = await Promise.all([caller.console.overview(), caller.console.operations({ limit: 8 })]);
  const month = summary.windows.find((window) => window.window === '30d')!;
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">{text.heading}</h1>
      <section aria-label={text.indicators} className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {summary.windows.map((window) => (
          <div
            key={window.window}
            className="rounded-lg border border-slate-200 bg-white p-4"
            data-testid={`window-${window.window}`}
          >
            <h2 className="text-sm text-slate-600">{text.windows[window.window]}</h2>
            <p className="text-2xl font-semibold">
              {window.volumes.length === 0
                ? money('0', '604')
                : window.volumes.map((volume) => money(volume.cents, volume.currency)).join(' · ')}
            </p>
            <p className="text-sm text-slate-600">
              {window.count} {text.operations}
            </p>
          </div>
        ))}
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <h2 className="text-sm text-slate-600">{text.approval}</h2>
          <p className="text-2xl font-semibold" data-testid="approval-rate">
            {month.approvalRate === null ? '—' : `${(month.approvalRate * 100).toFixed(1)} %`}
          </p>
          <p className="text-sm text-slate-600">
            {summary.pending} {text.pending} · {summary.refunds.reduce((sum, refund) => sum + refund.count, 0)} {text.refunds}
          </p>
        </div>
      </section>
      <section aria-labelledby="volume-chart" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="volume-chart" className="mb-2 font-semibold">
          {text.volumeChart}
        </h2>
        <VolumeByMethodChart data={summary.volumeByDay} methods={summary.methods} />
      </section>
      <section aria-labelledby="approval-chart" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="approval-chart" className="mb-2 font-semibold">
          {text.approvalChart}
        </h2>
        <ApprovalRateChart data={summary.approvalByDay} />
      </section>
      <section aria-labelledby="latest" className="space-y-2">
        <h2 id="latest" className="font-semibold">
          {text.latest}
        </h2>
        {latest.rows.length === 0 ? (
          <p className="text-slate-600">{text.none}</p>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
            {latest.rows.map((row) => (
              <li key={row.transactionId} className="flex flex-wrap items-center gap-3 px-3 py-2 text-sm">
                <Link className="font-mono text-blue-800 underline" href={`/operations/${row.transactionId}`}>
                  {row.merchantOperationNumber}
                </Link>
                <StateBadge state={row.state} />
                <span>{row.method}</span>
                <span className="ml-auto">{money(row.amount, row.currency)}</span>
                <span className="text-slate-500">{businessTime(row.createdAt, lang, businessZone())}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
