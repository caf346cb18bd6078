'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { consoleClient } from '../../console-ui/trpc-client';
import { ActionError, Confirm, INPUT } from '../../console-ui/form-kit';
import { SECONDARY_BUTTON } from '../../console-ui/buttons';
import { useConsoleAction } from '../../console-ui/use-console-action';
import { MERCHANT_ROLES, type MerchantRole } from './roles';

type Props = { userId: string; email: string; role: MerchantRole; disabled: boolean };

export function UserActions({ userId, email, role, disabled }: Props) {
  const t = useTranslations('settings.userActions');
  const roles = useTranslations('settings');
  const action = useConsoleAction({ own_user: t('known.ownUser'), last_admin: t('known.lastAdmin') });
  const [pending, setPending] = useState<{ kind: 'role'; role: MerchantRole } | { kind: 'disable' } | null>(null);
  const settings = consoleClient.console.settings;
  const confirm = pending ? (
    <Confirm
      id={`confirm-${userId}`}
      title={
        pending.kind === 'role'
          ? t('changeRole', { email, role: roles(`roles.${pending.role}`) })
          : t('confirmDisable', { email })
      }
      body={pending.kind === 'role' ? t('roleEffect') : t('disableEffect')}
      yes={pending.kind === 'role' ? t('yesRole') : t('yesDisable')}
      no={t('no')}
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
          aria-label={t('roleOf', { email })}
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
              {roles(`roles.${option}`)}
            </option>
          ))}
        </select>
        {disabled ? (
          <button
            type="button"
            aria-label={t('enableOf', { email })}
            disabled={action.busy}
            className={SECONDARY_BUTTON}
            onClick={() => action.run(() => settings.setUserDisabled.mutate({ userId, disabled: false }))}
          >
            {t('enable')}
          </button>
        ) : (
          <button
            type="button"
            aria-label={t('disableOf', { email })}
            disabled={action.busy}
            className={`${SECONDARY_BUTTON} text-red-800`}
            onClick={() => setPending({ kind: 'disable' })}
          >
            {t('disable')}
          </button>
        )}
      </div>
      {confirm}
      <ActionError message={action.error} />
    </div>
  );
}
