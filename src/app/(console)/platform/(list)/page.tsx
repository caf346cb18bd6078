import { getTranslations } from 'next-intl/server';
import type { Metadata } from 'next';
import { Suspense } from 'react';
import { consoleCaller, requireConsoleSession } from '@/server/api/console-caller';
import { Section } from '../../../console-ui/form-kit';
import { businessZone } from '../../../console-ui/zone-server';
import { UrlFilters } from '../../../console-ui/url-filters';
import { FacilitatorsTable } from '../facilitators-table';
import { MerchantsTable } from '../merchants-table';
import { PlatformOnly } from '../platform-only';
import { CreateFacilitatorForm, CreateMerchantForm, LinkMerchantForm } from '../platform-forms';
import { SettlementSection } from '../settlement-section';
import { CallbackKeysSection } from '../callback-keys-section';
import { can } from '@/server/modules/access/policy';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('platform.page'))('meta') };
}

type Props = { searchParams: Promise<{ q?: string }> };

export default async function PlatformPage({ searchParams }: Props) {
  const [session, { q }] = await Promise.all([requireConsoleSession(), searchParams]);
  if (!can(session.role, 'platform:read')) return <PlatformOnly />;
  const t = await getTranslations('platform.page');
  const platform = (await consoleCaller(session)).console.platform;
  const [merchants, facilitators, awaiting, callbackKeys] = await Promise.all([
    platform.merchants({ search: q?.slice(0, 64) || undefined }),
    platform.facilitators(),
    platform.awaitingSettlement({}),
    platform.callbackKeys(),
  ]);
  const canEdit = can(session.role, 'platform:act');
  const facilitatorCodes = facilitators.map((facilitator) => facilitator.code);
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">{t('title')}</h1>
      {canEdit ? null : (
        <p className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm" data-testid="read-only-note">
          {t('readOnly')}
        </p>
      )}
      <Section id="merchants" title={t('merchants')}>
        <Suspense>
          <UrlFilters label={t('search')} fields={[{ name: 'q', label: t('searchField'), kind: 'text', wide: true }]} />
        </Suspense>
        <MerchantsTable rows={merchants.rows} more={merchants.more} zone={businessZone()} />
        {canEdit ? <CreateMerchantForm facilitatorCodes={facilitatorCodes} /> : null}
      </Section>
      <Section id="facilitators" title={t('facilitators')}>
        <FacilitatorsTable rows={facilitators} zone={businessZone()} />
        {canEdit ? (
          <div className="grid gap-3 lg:grid-cols-2">
            <CreateFacilitatorForm />
            {facilitatorCodes.length > 0 ? <LinkMerchantForm facilitatorCodes={facilitatorCodes} /> : null}
          </div>
        ) : null}
      </Section>
      <SettlementSection awaiting={awaiting} canEdit={canEdit} />
      <CallbackKeysSection keys={callbackKeys.keys} configured={callbackKeys.configured} canEdit={canEdit} />
    </div>
  );
}
