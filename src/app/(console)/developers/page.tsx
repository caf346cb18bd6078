import { getFormatter, getTranslations } from 'next-intl/server';
import type { Metadata } from 'next';
import { Suspense } from 'react';
import { consoleCaller, requireConsoleSession } from '@/server/api/console-caller';
import { CALLBACK_STATUSES, type CallbackStatus } from '@/server/modules/events/callback-events';
import { CallbackEventsTable } from '../../console-ui/callback-events-table';
import { businessTime } from '../../console-ui/format';
import { businessZone } from '../../console-ui/zone-server';
import { PageLink } from '../../console-ui/page-link';
import { DataTable } from '../../console-ui/table';
import { UrlFilters } from '../../console-ui/url-filters';
import { CreateCredential, RevokeCredential } from './credential-actions';
import { WebhookEndpoints } from './webhook-endpoints';
import { can } from '@/server/modules/access/policy';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('developers.page'))('title') };
}

type Props = { searchParams: Promise<{ merchant?: string; status?: string; cursor?: string }> };

export default async function DevelopersPage({ searchParams }: Props) {
  const { merchant, status, cursor } = await searchParams;
  const session = await requireConsoleSession();
  const t = await getTranslations('developers.page');
  const table = await getTranslations('ui.callbackEventsTable');
  const format = await getFormatter();
  const zone = businessZone();
  const caller = await consoleCaller(session);
  const platform = can(session.role, 'merchants:all');
  const canAct = can(session.role, 'merchant:act');
  const chosen = platform ? merchant?.trim() || undefined : undefined;
  const statusValid = !status || (CALLBACK_STATUSES as readonly string[]).includes(status);
  const [credentials, endpoints, deliveries] = await Promise.all([
    !platform || chosen ? caller.console.credentials({ merchantCode: chosen }).catch(() => null) : null,
    !platform || chosen ? caller.console.webhooks.endpoints({ merchantCode: chosen }).catch(() => null) : null,
    statusValid
      ? caller.console
          .callbackEvents({
            merchantCode: chosen,
            status: (status || undefined) as CallbackStatus | undefined,
            cursor: cursor || undefined,
          })
          .catch(() => null)
      : null,
  ]);
  const older = new URLSearchParams({ ...(chosen ? { merchant: chosen } : {}), ...(status ? { status } : {}) });
  if (deliveries?.nextCursor) older.set('cursor', deliveries.nextCursor);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">{t('heading')}</h1>
      <section className="space-y-1 text-sm">
        <p>
          <a className="text-blue-800 underline" href="/docs">
            {t('reference')}
          </a>{' '}
          ·{' '}
          <a className="text-blue-800 underline" href="/api/openapi.json">
            {t('openapi')}
          </a>{' '}
          ·{' '}
          <a className="text-blue-800 underline" href="/api/webhooks/public-key" download="callbacks-public-key.pem">
            {t('publicKey')}
          </a>
        </p>
        <p className="text-slate-600">{t('signature')}</p>
      </section>
      {platform ? (
        <Suspense>
          <UrlFilters
            label={t('chooseLabel')}
            keep={['status']}
            fields={[{ name: 'merchant', label: t('merchantCode'), kind: 'text' }]}
          />
        </Suspense>
      ) : null}
      {credentials === null ? (
        <p className="text-slate-600">{platform && !chosen ? t('choose') : t('noMerchant')}</p>
      ) : (
        <section aria-labelledby="credentials" className="space-y-3">
          <h2 id="credentials" className="text-lg font-semibold">
            {t('credentials')}
          </h2>
          {credentials.length === 0 ? (
            <p className="text-slate-600">{t('noCredentials')}</p>
          ) : (
            <DataTable
              caption={t('credentials')}
              columns={[
                { label: 'client_id', wrap: true },
                { label: t('name'), wrap: true },
                { label: t('scopes'), wrap: true },
                { label: t('lastUse'), wrap: true },
                { label: t('state'), wrap: true },
              ]}
            >
              {credentials.map((credential) => (
                <tr key={credential.client_id} className="border-t border-slate-100" data-testid="credential-row">
                  <td className="px-3 py-2 font-mono">{credential.client_id}</td>
                  <td className="px-3 py-2">{credential.label}</td>
                  <td className="px-3 py-2 font-mono text-xs">{credential.scopes.join(' ')}</td>
                  <td className="px-3 py-2">
                    {credential.last_used_at ? businessTime(format, credential.last_used_at) : t('never')}
                  </td>
                  <td className="px-3 py-2">
                    {credential.revoked_at ? (
                      <span>{t('revoked', { at: businessTime(format, credential.revoked_at) })}</span>
                    ) : canAct ? (
                      <RevokeCredential clientId={credential.client_id} />
                    ) : (
                      t('active')
                    )}
                  </td>
                </tr>
              ))}
            </DataTable>
          )}
          {canAct ? <CreateCredential merchantCode={chosen} /> : null}
        </section>
      )}
      {credentials === null ? null : <WebhookEndpoints endpoints={endpoints} canAct={canAct} merchantCode={chosen} />}
      <section aria-labelledby="deliveries" className="space-y-3">
        <h2 id="deliveries" className="text-lg font-semibold">
          {t('log')}
        </h2>
        <p className="text-sm text-slate-600">{t('logHint')}</p>
        <Suspense>
          <UrlFilters
            label={t('logFilter')}
            keep={platform ? ['merchant'] : []}
            fields={[
              {
                name: 'status',
                label: t('status'),
                kind: 'select',
                options: [
                  { value: '', label: t('all') },
                  ...CALLBACK_STATUSES.map((value) => ({ value, label: table(`statuses.${value}`) })),
                ],
              },
            ]}
          />
        </Suspense>
        {deliveries === null ? (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-red-800">
            {statusValid ? t('logFailed') : t('logInvalid')}
          </p>
        ) : deliveries.rows.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">
            {t('logEmpty')}
          </p>
        ) : (
          <CallbackEventsTable events={deliveries.rows} zone={zone} canResend={canAct} log showMerchant={platform} />
        )}
        {deliveries?.nextCursor ? <PageLink href={`/developers?${older.toString()}`} label={t('next')} /> : null}
      </section>
    </div>
  );
}
