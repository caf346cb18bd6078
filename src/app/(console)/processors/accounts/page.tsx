import { getFormatter, getTranslations } from 'next-intl/server';
import type { Metadata } from 'next';
import Link from 'next/link';
import { Suspense } from 'react';
import { can } from '@/server/modules/access/policy';
import { consoleCaller, requireConsoleSession } from '@/server/api/console-caller';
import { businessTime } from '../../../console-ui/format';
import { CELL, DataTable, EmptyState } from '../../../console-ui/table';
import { UrlFilters } from '../../../console-ui/url-filters';
import { MethodNames } from '../../../console-ui/states';
import { AccountActions } from './account-actions';
import { AccountSettings } from './account-settings';
import { ConnectAccount } from './connect-account';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('processors.accounts.page'))('meta') };
}

type Props = { searchParams: Promise<{ merchant?: string }> };

export default async function ProcessorAccountsPage({ searchParams }: Props) {
  const [session, params] = await Promise.all([requireConsoleSession(), searchParams]);
  const t = await getTranslations('processors.accounts.page');
  const format = await getFormatter();
  const platform = can(session.role, 'merchants:all');
  const canAct = can(session.role, 'merchant:act');
  const chosen = platform ? params.merchant?.trim() || undefined : undefined;
  const caller = await consoleCaller(session);
  const listed =
    !platform || chosen ? await caller.console.processorAccounts.accounts({ merchantCode: chosen }).catch(() => null) : null;
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <p className="text-sm">
          <Link className="text-blue-800 underline" href="/processors">
            {t('back')}
          </Link>
        </p>
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        <p className="text-slate-600">{t('intro')}</p>
      </div>
      {platform ? (
        <Suspense>
          <UrlFilters label={t('chooseLabel')} fields={[{ name: 'merchant', label: t('merchantCode'), kind: 'text' }]} />
        </Suspense>
      ) : null}
      {listed === null ? (
        <p className="text-slate-600">{platform && !chosen ? t('choose') : t('noMerchant')}</p>
      ) : (
        <>
          {listed.accounts.length === 0 ? (
            <EmptyState text={t('empty')} />
          ) : (
            <DataTable
              caption={t('title')}
              columns={[
                ...[
                  t('columns.account'),
                  t('columns.processor'),
                  t('columns.methods'),
                  t('columns.keys'),
                  t('columns.notifications'),
                  t('columns.test'),
                  t('columns.state'),
                ],
                ...(canAct ? [t('actions')] : []),
              ]}
              testId="processor-accounts"
            >
              {listed.accounts.map((account) => (
                <tr
                  key={account.id}
                  className="border-t border-slate-100 align-top"
                  data-testid={`account-${account.connectorId}`}
                >
                  <td className={CELL}>
                    <span className="font-semibold">{account.name}</span>
                    <span className="block font-mono text-xs text-slate-600">{account.connectorId}</span>
                  </td>
                  <td className={CELL}>
                    {account.processorName}
                    <span className="block text-xs text-slate-600">{account.environment === 'live' ? t('live') : t('test')}</span>
                  </td>
                  <td className={CELL}>
                    <MethodNames methods={account.methods} />
                  </td>
                  <td className={`${CELL} font-mono text-xs break-all`}>
                    <span className="block">{account.publicKey}</span>
                    {account.apiUser ? <span className="block">{account.apiUser}</span> : null}
                    <span className="block" data-testid="secret-hint">
                      {account.secretHint}
                    </span>
                  </td>
                  <td className={`${CELL} text-xs break-all`}>
                    <span className="block font-mono" data-testid="notification-url">
                      {account.notificationUrl}
                    </span>
                    {account.webhookUsername ? (
                      <span className="block">
                        {t('user')}: <span className="font-mono">{account.webhookUsername}</span>
                      </span>
                    ) : null}
                  </td>
                  <td className={CELL} data-testid="check">
                    {account.checkedAt === null ? (
                      t('never')
                    ) : (
                      <>
                        <span className={account.checkOk ? 'text-emerald-800' : 'text-red-800'}>
                          {account.checkOk ? t('ok') : t('failed')}
                        </span>
                        <span className="block text-xs text-slate-600">{account.checkMessage}</span>
                        <span className="block text-xs text-slate-600">{businessTime(format, account.checkedAt)}</span>
                      </>
                    )}
                  </td>
                  <td className={CELL}>
                    <span data-testid="state">{account.enabled ? t('enabled') : t('disabled')}</span>
                    <span className="block text-xs text-slate-600" data-testid="calls">
                      {t('calls', { inFlight: account.calls.inFlight, limit: account.calls.limit })}
                    </span>
                    {account.calls.refused > 0 ? (
                      <span className="block text-xs text-slate-600">{t('callsRefused', { count: account.calls.refused })}</span>
                    ) : null}
                  </td>
                  {canAct ? (
                    <td className={`${CELL} space-y-2`}>
                      <AccountActions account={account} />
                      <AccountSettings
                        account={account}
                        carried={listed.processors.find((each) => each.id === account.processor)?.methods ?? account.methods}
                      />
                    </td>
                  ) : null}
                </tr>
              ))}
            </DataTable>
          )}
          {canAct ? (
            <ConnectAccount merchantCode={chosen} processors={listed.processors} />
          ) : (
            <p className="text-sm text-slate-600">{t('viewOnly')}</p>
          )}
        </>
      )}
    </div>
  );
}
