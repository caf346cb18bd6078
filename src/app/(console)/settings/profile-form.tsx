'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { consoleClient } from '../../console-ui/trpc-client';
import { formText } from '../../console-ui/form-text';
import { Field, INPUT, SaveRow } from '../../console-ui/form-kit';
import { useConsoleAction } from '../../console-ui/use-console-action';

type Props = { merchantCode?: string; code: string; name: string; supportEmail: string | null; canEdit: boolean };

export function ProfileForm({ merchantCode, code, name, supportEmail, canEdit }: Props) {
  const t = useTranslations('settings.profileForm');
  const action = useConsoleAction();
  const [saved, setSaved] = useState(false);
  return (
    <form
      className="space-y-3"
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        const email = formText(form, 'supportEmail').trim();
        setSaved(false);
        action.run(
          () =>
            consoleClient.console.settings.updateProfile.mutate({
              merchantCode,
              name: formText(form, 'name'),
              supportEmail: email || null,
            }),
          () => setSaved(true),
        );
      }}
    >
      <div className="text-sm">
        <p>
          {t('code')}:{' '}
          <code className="font-mono font-semibold" data-testid="merchant-code">
            {code}
          </code>
        </p>
        <p className="text-slate-600">{t('codeNote')}</p>
      </div>
      <fieldset disabled={!canEdit || action.busy} className="grid gap-3 sm:grid-cols-2">
        <Field id="profile-name" label={t('name')} hint={t('nameHint')}>
          <input
            id="profile-name"
            name="name"
            required
            maxLength={128}
            defaultValue={name}
            className={INPUT}
            aria-describedby="profile-name-hint"
          />
        </Field>
        <Field id="profile-email" label={t('email')} hint={t('emailHint')}>
          <input
            id="profile-email"
            name="supportEmail"
            type="email"
            maxLength={254}
            defaultValue={supportEmail ?? ''}
            className={INPUT}
            aria-describedby="profile-email-hint"
          />
        </Field>
      </fieldset>
      <SaveRow show={canEdit} disabled={action.busy} error={action.error} label={t('save')} saved={saved ? t('saved') : null} />
    </form>
  );
}
