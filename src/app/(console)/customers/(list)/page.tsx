import { getFormatter, getTranslations } from 'next-intl/server';
import type { Metadata } from 'next';
import Link from 'next/link';
import { Suspense } from 'react';
import { consoleCaller, requireConsoleSession } from '@/server/api/console-caller';
import { can } from '@/server/modules/access/policy';
import { businessTime, zoneName } from '../../../console-ui/format';
import { businessZone } from '../../../console-ui/zone-server';
import { DataTable } from '../../../console-ui/table';
import { UrlFilters } from '../../../console-ui/url-filters';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('customers.page'))('meta') };
}

type Props = { searchParams: Promise<Record<string, string | undefined>> };

/** Customers with saved cards: found by the merchant's customer id, e-mail or a card's last 4. */
export default async function CustomersPage({ searchParams }: Props) {
  const { q = '' } = await searchParams;
  const session = await requireConsoleSession();
  const t = await getTranslations('customers.page');
  const format = await getFormatter();
  const zone = businessZone();
  const caller = await consoleCaller(session);
  const page = await caller.console.customers({ q: q.slice(0, 128) });
  const platform = can(session.role, 'merchants:all');
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">{t('title')}</h1>
      <p className="max-w-prose text-sm text-slate-600">{t('intro')}</p>
      <Suspense>
        <UrlFilters label={t('search')} fields={[{ name: 'q', label: t('query'), kind: 'text', wide: true }]} />
      </Suspense>
      {page.customers.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">
          {q ? t('none') : t('empty')}
        </p>
      ) : (
        <>
          {page.more ? <p className="text-sm text-slate-600">{t('more')}</p> : null}
          <DataTable
            caption={t('caption')}
            testId="customers-table"
            columns={[
              t('customer'),
              ...(platform ? [t('merchant')] : []),
              t('email'),
              t('cards'),
              t('created', { zone: zoneName(zone) }),
            ]}
          >
            {page.customers.map((customer) => (
              <tr key={customer.customerId} className="border-t border-slate-100 align-top" data-testid="customer-row">
                <td className="px-3 py-2">
                  <Link href={`/customers/${customer.customerId}`} className="font-medium text-blue-700 underline">
                    {customer.merchantCustomerId}
                  </Link>
                  {customer.name ? <div className="text-slate-600">{customer.name}</div> : null}
                </td>
                {platform ? <td className="px-3 py-2 font-mono">{customer.merchantCode}</td> : null}
                <td className="px-3 py-2 break-all">{customer.email}</td>
                <td className="px-3 py-2">
                  {customer.activeCards.length ? (
                    customer.activeCards.join(', ')
                  ) : (
                    <span className="text-slate-500">{t('noCards')}</span>
                  )}
                </td>
                <td className="px-3 py-2 whitespace-nowrap">{businessTime(format, customer.createdAt.toISOString())}</td>
              </tr>
            ))}
          </DataTable>
        </>
      )}
    </div>
  );
}
