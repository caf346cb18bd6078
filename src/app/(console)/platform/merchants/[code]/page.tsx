import { getTranslations } from 'next-intl/server';
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { consoleCaller, requireConsoleSession } from '@/server/api/console-caller';
import { isAppError } from '@/server/core/domain/errors';
import { Section } from '../../../../console-ui/form-kit';
import { businessZone } from '../../../../console-ui/zone-server';
import { MerchantSettings } from '../../../settings/merchant-settings';
import { PlatformOnly } from '../../platform-only';
import { SettlementSection } from '../../settlement-section';
import { FacilitatorLink } from './facilitator-link';
import { can } from '@/server/modules/access/policy';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('platform.merchants.detail.page'))('meta') };
}

type Props = { params: Promise<{ code: string }> };

export default async function PlatformMerchantPage({ params }: Props) {
  const [session, { code: raw }] = await Promise.all([requireConsoleSession(), params]);
  if (!can(session.role, 'platform:read')) return <PlatformOnly />;
  const code = decodeURIComponent(raw);
  const caller = await consoleCaller(session);
  const found = await Promise.all([
    caller.console.settings.merchant({ merchantCode: code }),
    caller.console.settings.users({ merchantCode: code }),
    caller.console.platform.facilitators(),
    caller.console.platform.awaitingSettlement({ merchantCode: code }),
  ]).catch((error: unknown) => {
    // An unknown or malformed code is simply not found.
    const cause = (error as { cause?: unknown }).cause;
    if (isAppError(cause) && (cause.kind === 'NOT_FOUND' || cause.kind === 'VALIDATION')) return null;
    throw error;
  });
  if (!found) notFound();
  const [settings, users, facilitators, awaiting] = found;
  const t = await getTranslations('platform.merchants.detail.page');
  const canEdit = can(session.role, 'platform:act');
  return (
    <div className="space-y-4">
      <Link href="/platform" className="text-sm text-blue-800 underline">
        {t('back')}
      </Link>
      <div>
        <h1 className="text-2xl font-semibold break-words">
          <span className="sr-only">{t('merchant')} </span>
          {settings.name}
        </h1>
        <p className="font-mono text-sm text-slate-600">{settings.code}</p>
        <Link href={`/developers?merchant=${encodeURIComponent(settings.code)}`} className="text-sm text-blue-800 underline">
          {t('credentials')}
        </Link>
      </div>
      <Section id="facilitator" title={t('facilitator')}>
        <FacilitatorLink
          merchantCode={settings.code}
          current={settings.facilitator}
          facilitatorCodes={facilitators.map((facilitator) => facilitator.code)}
          canEdit={canEdit}
        />
      </Section>
      <MerchantSettings
        settings={settings}
        users={users}
        canEdit={canEdit}
        merchantCode={settings.code}
        selfUserId={null}
        zone={businessZone()}
      />
      <SettlementSection awaiting={awaiting} merchantCode={settings.code} canEdit={canEdit} />
    </div>
  );
}
