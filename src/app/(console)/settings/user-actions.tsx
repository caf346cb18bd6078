'use client';

import { useState } from 'react';
import { consoleClient } from '../../console-ui/trpc-client';
import { ActionError, Confirm, INPUT } from '../../console-ui/form-kit';
import { SECONDARY_BUTTON } from '../../console-ui/buttons';
import { useConsoleLang } from '../../console-ui/lang-context';
import { useConsoleAction, type KnownErrors } from '../../console-ui/use-console-action';
import { MERCHANT_ROLES, ROLE_NAMES, type MerchantRole } from './roles';

const TEXT = {
  es: {
    roleOf: (email: string) => `Rol de ${email}`,
    changeRole: (email: string, role: string) => `¿Cambiar el rol de ${email} a ${role}?`,
    roleEffect: 'El cambio rige desde su próxima acción, también en una sesión ya abierta.',
    yesRole: 'Sí, cambiar el rol',
    disable: 'Desactivar',
    disableOf: (email: string) => `Desactivar a ${email}`,
    confirmDisable: (email: string) => `¿Desactivar a ${email}?`,
    disableEffect: 'Ya no podrá ingresar, y su sesión abierta deja de funcionar. Podrás activarlo de nuevo.',
    yesDisable: 'Sí, desactivar',
    enable: 'Activar',
    enableOf: (email: string) => `Activar a ${email}`,
    no: 'No',
  },
  en: {
    roleOf: (email: string) => `Role of ${email}`,
    changeRole: (email: string, role: string) => `Change the role of ${email} to ${role}?`,
    roleEffect: 'It applies from their next action, in an open session too.',
    yesRole: 'Yes, change the role',
    disable: 'Disable',
    disableOf: (email: string) => `Disable ${email}`,
    confirmDisable: (email: string) => `Disable ${email}?`,
    disableEffect: 'They can no longer sign in, and their open session stops working. You can enable them again.',
    yesDisable: 'Yes, disable',
    enable: 'Enable',
    enableOf: (email: string) => `Enable ${email}`,
    no: 'No',
  },
};

const KNOWN: KnownErrors = {
  own_user: {
    es: 'No puedes cambiar tu propio rol ni desactivarte: pídeselo a otro administrador.',
    en: 'You cannot change your own role or disable yourself: ask another administrator.',
  },
  last_admin: {
    es: 'El comercio debe conservar al menos un administrador activo.',
    en: 'The merchant must keep at least one active administrator.',
  },
};

type Props = { userId: string; email: string; role: MerchantRole; disabled: boolean };

export function UserActions({ userId, email, role, disabled }: Props) {
  const lang = useConsoleLang();
  const text = TEXT[lang];
  const action = useConsoleAction(KNOWN);
  const [pending, setPending] = useState<{ kind: 'role'; role: MerchantRole } | { kind: 'disable' } | null>(null);
  const settings = consoleClient.console.settings;
  const confirm = pending ? (
    <Confirm
      id={`confirm-${userId}`}
      title={pending.kind === 'role' ? text.changeRole(email, ROLE_NAMES[lang][pending.role]) : text.confirmDisable(email)}
      body={pending.kind === 'role' ? text.roleEffect : text.disableEffect}
      yes={pending.kind === 'role' ? text.yesRole : text.yesDisable}
      no={text.no}
      busy={action.busy}
      danger={pending.kind === 'disable'}
      onYes={() =>
        action.run(
          () =>
            pending.kind === 'role'
              ? settings.setUserRole.mutate({ userId, role: pending.role })
              : settings.setUserDisabled.mutate({ userId, disabled: true }),
          () => setPending(null),
        )
      }
      onNo={() => setPending(null)}
    />
  ) : null;
  return (
    <div className="min-w-56 space-y-2 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <select
          aria-label={text.roleOf(email)}
          value={pending?.kind === 'role' ? pending.role : role}
          disabled={action.busy}
          onChange={(event) => {
            const next = event.target.value as MerchantRole;
            setPending(next === role ? null : { kind: 'role', role: next });
          }}
          className={`${INPUT} mt-0 w-auto`}
        >
          {MERCHANT_ROLES.map((option) => (
            <option key={option} value={option}>
              {ROLE_NAMES[lang][option]}
            </option>
          ))}
        </select>
        {disabled ? (
          <button
            type="button"
            aria-label={text.enableOf(email)}
            disabled={action.busy}
            className={SECONDARY_BUTTON}
            onClick={() => action.run(() => settings.setUserDisabled.mutate({ userId, disabled: false }))}
          >
            {text.enable}
          </button>
        ) : (
          <button
            type="button"
            aria-label={text.disableOf(email)}
            disabled={action.busy}
            className={`${SECONDARY_BUTTON} text-red-800`}
            onClick={() => setPending({ kind: 'disable' })}
          >
            {text.disable}
          </button>
        )}
      </div>
      {confirm}
      <ActionError message={action.error} />
    </div>
  );
}
