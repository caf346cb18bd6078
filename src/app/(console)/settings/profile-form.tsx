'use client';

import { useState } from 'react';
import { consoleClient } from '../../console-ui/trpc-client';
import { formText } from '../../console-ui/form-text';
import { Field, INPUT, SaveRow } from '../../console-ui/form-kit';
import { useConsoleLang } from '../../console-ui/lang-context';
import { useConsoleAction } from '../../console-ui/use-console-action';

const TEXT = {
  es: {
    code: 'Código de comercio',
    codeNote: 'Lo usa la API en cada solicitud; no se puede cambiar.',
    name: 'Nombre del comercio',
    nameHint: 'Se muestra al pagador en las páginas de pago.',
    email: 'Correo de soporte (opcional)',
    emailHint: 'Las páginas de pago lo muestran para que el pagador pueda escribirte.',
    save: 'Guardar perfil',
    saved: 'Perfil guardado.',
  },
  en: {
    code: 'Merchant code',
    codeNote: 'The API uses it in every request; it cannot be changed.',
    name: 'Merchant name',
    nameHint: 'Payers see it on the payment pages.',
    email: 'Support email (optional)',
    emailHint: 'The payment pages show it so that payers can write to you.',
    save: 'Save profile',
    saved: 'Profile saved.',
  },
};

type Props = { merchantCode?: string; code: string; name: string; supportEmail: string | null; canEdit: boolean };

export function ProfileForm({ merchantCode, code, name, supportEmail, canEdit }: Props) {
  const text = TEXT[useConsoleLang()];
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
          {text.code}:{' '}
          <code className="font-mono font-semibold" data-testid="merchant-code">
            {code}
          </code>
        </p>
        <p className="text-slate-600">{text.codeNote}</p>
      </div>
      <fieldset disabled={!canEdit || action.busy} className="grid gap-3 sm:grid-cols-2">
        <Field id="profile-name" label={text.name} hint={text.nameHint}>
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
        <Field id="profile-email" label={text.email} hint={text.emailHint}>
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
      <SaveRow show={canEdit} disabled={action.busy} error={action.error} label={text.save} saved={saved ? text.saved : null} />
    </form>
  );
}
