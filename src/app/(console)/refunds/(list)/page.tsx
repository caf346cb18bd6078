import { getFormatter, getTranslations } from 'next-intl/server';
import type { Metadata } from 'next';
import Link from 'next/link';
import { Suspense } from 'react';
import { consoleCaller, requireConsoleSession } from '@/server/api/console-caller';
import { toAppError } from '@/server/api/errors/to-app-error';
import { PRIMARY_BUTTON, SECONDARY_BUTTON } from '../../../console-ui/buttons';
import { businessTime, money, refundInstant, zoneName } from '../../../console-ui/format';
import { MethodName, StateBadge, StateName } from '../../../console-ui/states';
import { businessZone } from '../../../console-ui/zone-server';
import { DataTable } from '../../../console-ui/table';
import { UrlFilters } from '../../../console-ui/url-filters';
import { can } from '@/server/modules/access/policy';
import { REFUND_STATES } from '@/server/core/domain/states';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('refunds.page'))('meta') };
}

type Props = { searchParams: Promise<Record<string, string | undefined>> };

const KEYS = [
  'start_date',
  'end_date',
  'merchant_code',
  'merchant_operation_number',
  'transaction_id',
  'state',
  'cursor',
] as const;

export default async function RefundsPage({ searchParams }: Props) {
  const params = await searchParams;
  const session = await requireConsoleSession();
  const t = await getTranslations('refunds.page');
  const states = await getTranslations('ui.states');
  const format = await getFormatter();
  const zone = businessZone();
  const caller = await consoleCaller(session);
  const platform = can(session.role, 'merchants:all');
  const filters = Object.fromEntries(KEYS.filter((key) => params[key]).map((key) => [key, params[key]!]));
  // Filters the procedure refuses are the visitor's to fix; any other failure is the error page's.
  const page = await caller.console.refunds({ ...filters, limit: '25' }).catch((error: unknown) => {
    if (toAppError(error).kind === 'VALIDATION') return null;
    throw error;
  });
  // The export is the whole filtered set: the filters without the page's cursor.
  const exportFilters = new URLSearchParams(filters);
  exportFilters.delete('cursor');
  const next = new URLSearchParams(filters);
  if (page?.next_cursor) next.set('cursor', page.next_cursor);
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        {page !== null ? (
          <a
            href={`/refunds/export?${exportFilters.toString()}`}
            title={t('exportHint')}
            data-testid="export-csv"
            className={`ml-auto font-medium ${SECONDARY_BUTTON}`}
          >
            {t('export')}
          </a>
        ) : null}
        {can(session.role, 'merchant:act') ? (
          <Link href="/refunds/new" className={`${page === null ? 'ml-auto ' : ''}${PRIMARY_BUTTON}`}>
            {t('newRefund')}
          </Link>
        ) : null}
      </div>
      <Suspense>
        <UrlFilters
          label={t('filters')}
          fields={[
            { name: 'start_date', label: t('from'), kind: 'date' },
            { name: 'end_date', label: t('to'), kind: 'date' },
            ...(platform ? [{ name: 'merchant_code', label: t('merchant'), kind: 'text' as const }] : []),
            { name: 'merchant_operation_number', label: t('operation'), kind: 'text' },
            { name: 'transaction_id', label: t('transaction'), kind: 'text', wide: true },
            {
              name: 'state',
              label: t('state'),
              kind: 'select',
              options: [
                { value: '', label: t('all') },
                ...REFUND_STATES.map((value) => ({ value, label: states(`state.${value}`) })),
              ],
            },
          ]}
        />
      </Suspense>
      {page === null ? (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-red-800">
          {t('invalid')}
        </p>
      ) : page.operations.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">{t('empty')}</p>
      ) : (
        <>
          <p className="text-sm text-slate-600" data-testid="refund-count">
            {t('count', { count: Number(page.operations_count) })}
          </p>
          <DataTable
            caption={t('caption')}
            testId="refunds-table"
            columns={[
              t('refund'),
              t('registered', { zone: zoneName(zone) }),
              t('operation'),
              t('state'),
              { label: t('amount'), right: true },
              t('method'),
              t('reason'),
              t('lifecycle'),
            ]}
          >
            {page.operations.map((refund) => (
              <tr key={refund.refund_id} className="border-t border-slate-100 align-top" data-testid="refund-row">
                <td className="px-3 py-2 font-mono whitespace-nowrap">
                  <Link
                    href={`/refunds/${refund.refund_id}`}
                    aria-label={t('open', { id: refund.refund_id })}
                    className="text-blue-800 underline"
                  >
                    {refund.refund_id.slice(0, 8)}
                  </Link>
                </td>
                <td className="px-3 py-2 whitespace-nowrap">{businessTime(format, refundInstant(refund.lifecycle[0]!.date))}</td>
                <td className="px-3 py-2 font-mono break-all">
                  <Link className="text-blue-800 underline" href={`/operations/${refund.transaction_id}`}>
                    {refund.merchant_operation_number}
                  </Link>
                </td>
                <td className="px-3 py-2">
                  <StateBadge state={refund.state} />
                </td>
                <td className="px-3 py-2 text-right whitespace-nowrap">{money(format, refund.refund_amount, refund.currency)}</td>
                <td className="px-3 py-2">
                  <MethodName method={refund.payment_method.name} />{' '}
                  <span className="block font-mono whitespace-nowrap text-slate-500">{refund.payment_method.masked_pan}</span>
                </td>
                <td className="max-w-60 px-3 py-2 break-words">{refund.additional_fields.reason}</td>
                <td className="px-3 py-2">
                  {refund.lifecycle.map((entry) => (
                    <div key={entry.state}>
                      <StateName state={entry.state} /> · {businessTime(format, refundInstant(entry.date))}
                    </div>
                  ))}
                </td>
              </tr>
            ))}
          </DataTable>
        </>
      )}
      {page?.next_cursor ? (
        <Link
          href={`/refunds?${next.toString()}`}
          className="inline-block rounded-md border border-slate-300 bg-white px-4 py-1.5 text-sm"
        >
          {t('next')}
        </Link>
      ) : null}
    </div>
  );
}
