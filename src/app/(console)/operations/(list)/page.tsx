import { getFormatter, getTranslations } from 'next-intl/server';
import type { Metadata } from 'next';
import Link from 'next/link';
import { Suspense } from 'react';
import { consoleCaller, requireConsoleSession } from '@/server/api/console-caller';
import { isAppError } from '@/server/core/domain/errors';
import { operationsUrlFilters } from '@/server/modules/console/operations-url';
import { businessTime, money, zoneName } from '../../../console-ui/format';
import { MoneyNotes } from '../../../console-ui/money-notes';
import { MethodName, StateBadge } from '../../../console-ui/states';
import { businessZone } from '../../../console-ui/zone-server';
import { PageLink } from '../../../console-ui/page-link';
import { DataTable } from '../../../console-ui/table';
import { OperationFilters } from '../filters';
import { can } from '@/server/modules/access/policy';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('operations.page'))('title') };
}

const PAGE_SIZE = 25;

type Props = { searchParams: Promise<Record<string, string | undefined>> };

export default async function OperationsPage({ searchParams }: Props) {
  const params = await searchParams;
  const session = await requireConsoleSession();
  const t = await getTranslations('operations.page');
  const format = await getFormatter();
  const zone = businessZone();
  const caller = await consoleCaller(session);
  const url = operationsUrlFilters(params);
  let page: Awaited<ReturnType<typeof caller.console.operations>> | null = null;
  let failure: string | null = url.ok ? null : t('invalid', { names: url.invalid.join(', ') });
  if (url.ok) {
    try {
      page = await caller.console.operations({
        ...url.filters,
        cursor: params.before ? undefined : params.cursor || undefined,
        before: params.before || undefined,
        limit: PAGE_SIZE,
      });
    } catch (error) {
      const cause = (error as { cause?: unknown }).cause;
      failure = isAppError(cause) ? t('invalid', { names: 'cursor' }) : t('failed');
    }
  }
  const filters = new URLSearchParams(
    Object.entries(params).filter(
      (entry): entry is [string, string] => Boolean(entry[1]) && !['cursor', 'before', 'page'].includes(entry[0]),
    ),
  );
  // The page's number rides in the address with its cursor; the first page is 1 whatever it says.
  const number = page?.prevCursor ? Math.max(Number.parseInt(params.page ?? '', 10) || 2, 2) : 1;
  const link = (cursor: [string, string], to: number) => {
    const query = new URLSearchParams(filters);
    query.set(...cursor);
    query.set('page', String(to));
    return `/operations?${query.toString()}`;
  };
  const showMerchant = can(session.role, 'merchants:all');
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold">{t('heading')}</h1>
        {url.ok ? (
          <a
            href={`/operations/export?${filters.toString()}`}
            title={t('exportHint')}
            data-testid="export-csv"
            className="ml-auto rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-slate-100 focus:outline-none focus-visible:ring-4 focus-visible:ring-slate-300"
          >
            {t('export')}
          </a>
        ) : null}
      </div>
      <Suspense>
        <OperationFilters />
      </Suspense>
      {failure ? (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-red-800">
          {failure}
        </p>
      ) : page && page.rows.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">{t('empty')}</p>
      ) : page ? (
        <DataTable
          caption={t('caption')}
          testId="operations-table"
          columns={[
            t('date', { zone: zoneName(zone) }),
            ...(showMerchant ? [{ label: t('merchant'), wrap: true as const }] : []),
            { label: t('operation'), wrap: true },
            { label: t('method'), wrap: true },
            { label: t('state'), wrap: true },
            { label: t('amount'), right: true, wrap: true },
            { label: t('payer'), wrap: true },
          ]}
        >
          {page.rows.map((row) => (
            <tr key={row.transactionId} className="border-t border-slate-100 hover:bg-slate-50" data-testid="operation-row">
              <td className="px-3 py-2 whitespace-nowrap" title={row.createdAt}>
                {businessTime(format, row.createdAt)}
              </td>
              {showMerchant ? <td className="px-3 py-2">{row.merchantCode}</td> : null}
              <td className="px-3 py-2 font-mono whitespace-nowrap">
                <Link href={`/operations/${row.transactionId}`} className="text-blue-800 underline">
                  {row.merchantOperationNumber}
                </Link>
              </td>
              <td className="px-3 py-2">
                <MethodName method={row.method} />
                {row.maskedPan ? (
                  <span className="ml-1 inline-block font-mono whitespace-nowrap text-slate-500">{row.maskedPan}</span>
                ) : null}
              </td>
              <td className="px-3 py-2">
                <StateBadge state={row.state} />
              </td>
              <td className="px-3 py-2 text-right whitespace-nowrap">
                {money(format, row.amount, row.currency)}
                <MoneyNotes state={row.state} figures={row.money} currency={row.currency} />
              </td>
              <td className="max-w-64 px-3 py-2 break-words">
                {row.payerName ? <span className="block">{row.payerName}</span> : null}
                {row.payerEmail ? <span className="block text-slate-600">{row.payerEmail}</span> : null}
              </td>
            </tr>
          ))}
        </DataTable>
      ) : null}
      {page && page.rows.length > 0 ? (
        <nav aria-label={t('pagination')} className="flex flex-wrap items-center gap-3" data-testid="pagination">
          <p className="text-sm text-slate-700" data-testid="page-range">
            {t('range', {
              start: (number - 1) * PAGE_SIZE + 1,
              end: (number - 1) * PAGE_SIZE + page.rows.length,
              total: page.total.count,
              more: String(page.total.more),
            })}
          </p>
          {page.prevCursor ? <PageLink href={link(['before', page.prevCursor], number - 1)} label={t('previous')} /> : null}
          {page.nextCursor ? <PageLink href={link(['cursor', page.nextCursor], number + 1)} label={t('next')} /> : null}
        </nav>
      ) : null}
    </div>
  );
}
