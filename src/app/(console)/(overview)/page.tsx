import { getFormatter, getTranslations } from 'next-intl/server';
import type { Metadata } from 'next';
import Link from 'next/link';
import { consoleCaller, requireConsoleSession } from '@/server/api/console-caller';
import { ApprovalRateChart, VolumeByMethodChart } from '../../console-ui/charts';
import { businessTime, money } from '../../console-ui/format';
import { MethodName, StateBadge } from '../../console-ui/states';
import { MoneyNotes } from '../../console-ui/money-notes';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('overview'))('title') };
}

/** The overview's windows (overview.ts). */
type Window = 'today' | '7d' | '30d';

export default async function OverviewPage() {
  const session = await requireConsoleSession();
  const t = await getTranslations('overview');
  const format = await getFormatter();
  const caller = await consoleCaller(session);
  const [summary, latest] = await Promise.all([caller.console.overview(), caller.console.operations({ limit: 8 })]);
  const month = summary.windows.find((window) => window.window === '30d')!;
  // Sums per currency; none is S/ 0.00.
  const amounts = (sums: { currency: string; cents: string }[]) =>
    sums.length === 0 ? money(format, '0', '604') : sums.map((sum) => money(format, sum.cents, sum.currency)).join(' · ');
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">{t('heading')}</h1>
      <section aria-label={t('indicators')} className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {summary.windows.map((window) => (
          <div
            key={window.window}
            className="rounded-lg border border-slate-200 bg-white p-4"
            data-testid={`window-${window.window}`}
          >
            <h2 className="text-sm text-slate-600">{t(`windows.${window.window as Window}`)}</h2>
            <p className="text-xs text-slate-600">{t('approvedVolume')}</p>
            <p className="text-2xl font-semibold" data-testid="approved-volume">
              {amounts(window.volumes)}
            </p>
            <p className="text-sm text-slate-600" data-testid="approved-of">
              {t('approvedOf', { approved: window.approved, count: window.count })}
            </p>
            {window.uncaptured.length > 0 ? (
              <p className="mt-1 text-sm text-slate-700" data-testid="uncaptured">
                {t('uncaptured', { amount: amounts(window.uncaptured) })}
              </p>
            ) : null}
          </div>
        ))}
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <h2 className="text-sm text-slate-600">{t('approval')}</h2>
          <p className="text-2xl font-semibold" data-testid="approval-rate">
            {month.approvalRate === null
              ? '—'
              : `${format.number(month.approvalRate * 100, { maximumFractionDigits: 1, minimumFractionDigits: 1 })} %`}
          </p>
          <p className="text-sm text-slate-600" data-testid="approval-basis">
            {t('approvalBasis', { decided: month.approved + month.declined })}
          </p>
          <p className="text-sm text-slate-600" data-testid="pending">
            {t('pending', { count: summary.pending })}
          </p>
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-4" data-testid="refunds-figures">
          <h2 className="text-sm text-slate-600">{t('refundsHeading')}</h2>
          <p className="text-xs text-slate-600">{t('refunded')}</p>
          <p className="text-2xl font-semibold" data-testid="refunded">
            {amounts(summary.refunds.resolved.amounts)}
          </p>
          <p className="text-sm text-slate-600">{t('refundCount', { count: summary.refunds.resolved.count })}</p>
          <p className="mt-2 text-sm text-slate-700" data-testid="refunds-in-process">
            {t('inProcess', { count: summary.refunds.inProcess.count, amount: amounts(summary.refunds.inProcess.amounts) })}
          </p>
        </div>
      </section>
      <section aria-labelledby="volume-chart" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="volume-chart" className="mb-2 font-semibold">
          {t('volumeChart')}
        </h2>
        <VolumeByMethodChart data={summary.volumeByDay} methods={summary.methods} />
      </section>
      <section aria-labelledby="approval-chart" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="approval-chart" className="mb-2 font-semibold">
          {t('approvalChart')}
        </h2>
        <ApprovalRateChart data={summary.approvalByDay} />
      </section>
      <section aria-labelledby="latest" className="space-y-2">
        <h2 id="latest" className="font-semibold">
          {t('latest')}
        </h2>
        {latest.rows.length === 0 ? (
          <p className="text-slate-600">{t('none')}</p>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
            {latest.rows.map((row) => (
              <li key={row.transactionId} className="flex flex-wrap items-center gap-3 px-3 py-2 text-sm">
                <Link className="font-mono text-blue-800 underline" href={`/operations/${row.transactionId}`}>
                  {row.merchantOperationNumber}
                </Link>
                <StateBadge state={row.state} />
                <span>
                  <MethodName method={row.method} />
                </span>
                <span className="ml-auto text-right">
                  {money(format, row.amount, row.currency)}
                  <MoneyNotes state={row.state} figures={row.money} currency={row.currency} />
                </span>
                <span className="text-slate-500">{businessTime(format, row.createdAt)}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
