import type { MerchantSettingsView } from '@/server/modules/console/merchant-settings';
import type { MerchantUserView } from '@/server/modules/access/merchant-users';
import type { ConsoleLang } from '../../console-ui/i18n';
import { Section } from '../../console-ui/form-kit';
import { AddUserForm } from './add-user-form';
import { ExpiriesForm } from './expiries-form';
import { MethodsForm } from './methods-form';
import { People } from './people';
import { ProfileForm } from './profile-form';

const TEXT = {
  es: {
    readOnly: 'Tu rol es de solo lectura: ves la configuración, pero no puedes cambiarla.',
    profile: 'Perfil',
    methods: 'Medios de pago',
    expiries: 'Vencimiento de pagos pendientes',
    people: 'Personas',
  },
  en: {
    readOnly: 'Your role is read-only: you see the settings but cannot change them.',
    profile: 'Profile',
    methods: 'Payment methods',
    expiries: 'Pending payment expiry',
    people: 'People',
  },
};

type Props = {
  settings: MerchantSettingsView;
  users: MerchantUserView[];
  canEdit: boolean;
  /** Platform staff name the merchant in every call; merchant users act on their own. */
  merchantCode?: string;
  selfUserId: string | null;
  lang: ConsoleLang;
  /** The business time zone the people's dates are shown in. */
  zone: string;
};

/** A merchant's settings and people: /settings for its users, /platform/merchants/<code> for platform staff. */
export function MerchantSettings({ settings, users, canEdit, merchantCode, selfUserId, lang, zone }: Props) {
  const text = TEXT[lang];
  return (
    <div className="space-y-4" key={settings.code}>
      {canEdit ? null : (
        <p className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm" data-testid="read-only-note">
          {text.readOnly}
        </p>
      )}
      <Section id="profile" title={text.profile}>
        <ProfileForm
          merchantCode={merchantCode}
          code={settings.code}
          name={settings.name}
          supportEmail={settings.supportEmail}
          canEdit={canEdit}
        />
      </Section>
      <Section id="methods" title={text.methods}>
        <MethodsForm merchantCode={merchantCode} enabledMethods={settings.enabledMethods} canEdit={canEdit} />
      </Section>
      <Section id="expiries" title={text.expiries}>
        <ExpiriesForm merchantCode={merchantCode} expiries={settings.expiries} canEdit={canEdit} />
      </Section>
      <Section id="people" title={text.people}>
        <People users={users} canEdit={canEdit} selfUserId={selfUserId} lang={lang} zone={zone} />
        {canEdit ? <AddUserForm merchantCode={merchantCode} /> : null}
      </Section>
    </div>
  );
}
