import { getTranslations } from 'next-intl/server';
import type { Metadata } from 'next';
import { Suspense } from 'react';
import { consoleCaller, requireConsoleSession } from '@/server/api/console-caller';
import { toAppError } from '@/server/api/errors/to-app-error';
import { BackLink } from '../../../console-ui/back-link';
import { UrlFilters } from '../../../console-ui/url-filters';
import { RefundBatchForm } from './refund-batch-form';
import { can } from '@/server/modules/access/policy';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('refunds.new.page'))('meta') };
}

type Props = { searchParams: Promise<{ merchant?: string; q?: string }> };

export default async function NewRefundPage({ searchParams }: Props) {
  const params = await searchParams;
  const session = await requireConsoleSession();
  const t = await getTranslations('refunds.new.page');
  const platform = can(session.role, 'merchants:all');
  const chosen = platform ? params.merchant?.trim() || undefined : undefined;
  const caller = await consoleCaller(session);
  const list =
    can(session.role, 'merchant:act') && (!platform || chosen)
      ? await caller.console
          .refundableTransactions({ merchantCode: chosen, search: params.q?.trim() || undefined })
          .catch((error: unknown) => {
            if (toAppError(error).kind === 'NOT_FOUND') return null;
            throw error;
          })
      : undefined;
  return (
    <div className="space-y-6">
      <BackLink href="/refunds">{t('back')}</BackLink>
      <h1 className="text-2xl font-semibold">{t('title')}</h1>
      {!can(session.role, 'merchant:act') ? (
        <p className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950" data-testid="read-only">
          {t('readOnly')}
        </p>
      ) : (
        <>
          <p className="text-slate-700">{t('intro')}</p>
          <Suspense>
            <UrlFilters
              label={t('find')}
              fields={[
                ...(platform ? [{ name: 'merchant', label: t('merchant'), kind: 'text' as const }] : []),
                { name: 'q', label: t('search'), kind: 'text', wide: true, placeholder: t('searchHint') },
              ]}
            />
          </Suspense>
          {list === undefined ? (
            <p className="text-slate-700">{t('chooseMerchant')}</p>
          ) : list === null ? (
            <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-red-800">
              {t('noMerchant', { code: chosen ?? '' })}
            </p>
          ) : (
            <>
              {platform ? (
                <p className="font-medium" data-testid="acting-for">
                  {t('actingFor', { name: list.merchant.name, code: list.merchant.code })}
                </p>
              ) : null}
              <RefundBatchForm
                key={list.merchant.code}
                merchantCode={platform ? list.merchant.code : undefined}
                candidates={list.rows}
                more={list.more}
              />
            </>
          )}
        </>
      )}
    </div>
  );
}
