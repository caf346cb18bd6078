import { getTranslations } from 'next-intl/server';
import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { consoleCaller, requireConsoleSession } from '@/server/api/console-caller';
import { businessZone } from '../../console-ui/zone-server';
import { MerchantSettings } from './merchant-settings';
import { can } from '@/server/modules/access/policy';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('settings.page'))('meta') };
}

export default async function SettingsPage() {
  const session = await requireConsoleSession();
  // Platform staff have no merchant of their own: they manage merchants from /platform.
  if (can(session.role, 'merchants:all')) redirect('/platform');
  const caller = await consoleCaller(session);
  const [settings, users] = await Promise.all([caller.console.settings.merchant({}), caller.console.settings.users({})]);
  const t = await getTranslations('settings.page');
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        <p className="text-slate-600">{t('intro')}</p>
      </div>
      <MerchantSettings
        settings={settings}
        users={users}
        canEdit={can(session.role, 'merchant:act')}
        selfUserId={session.userId}
        zone={businessZone()}
      />
    </div>
  );
}
