import { useTranslations } from 'next-intl';
import type { MerchantSettingsView } from '@/server/modules/console/merchant-settings';
import type { MerchantUserView } from '@/server/modules/access/merchant-users';
import { Section } from '../../console-ui/form-kit';
import { AddUserForm } from './add-user-form';
import { ExpiriesForm } from './expiries-form';
import { MethodsForm } from './methods-form';
import { People } from './people';
import { ProfileForm } from './profile-form';

type Props = {
  settings: MerchantSettingsView;
  users: MerchantUserView[];
  canEdit: boolean;
  /** Platform staff name the merchant in every call; merchant users act on their own. */
  merchantCode?: string;
  selfUserId: string | null;
  /** The business time zone the people's dates are shown in. */
  zone: string;
};

/** A merchant's settings and people: /settings for its users, /platform/merchants/<code> for platform staff. */
export function MerchantSettings({ settings, users, canEdit, merchantCode, selfUserId, zone }: Props) {
  const t = useTranslations('settings.merchantSettings');
  return (
    <div className="space-y-4" key={settings.code}>
      {canEdit ? null : (
        <p className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm" data-testid="read-only-note">
          {t('readOnly')}
        </p>
      )}
      <Section id="profile" title={t('profile')}>
        <ProfileForm
          merchantCode={merchantCode}
          code={settings.code}
          name={settings.name}
          supportEmail={settings.supportEmail}
          canEdit={canEdit}
        />
      </Section>
      <Section id="methods" title={t('methods')}>
        <MethodsForm merchantCode={merchantCode} enabledMethods={settings.enabledMethods} canEdit={canEdit} />
      </Section>
      <Section id="expiries" title={t('expiries')}>
        <ExpiriesForm merchantCode={merchantCode} expiries={settings.expiries} canEdit={canEdit} />
      </Section>
      <Section id="people" title={t('people')}>
        <People users={users} canEdit={canEdit} selfUserId={selfUserId} zone={zone} />
        {canEdit ? <AddUserForm merchantCode={merchantCode} /> : null}
      </Section>
    </div>
  );
}
