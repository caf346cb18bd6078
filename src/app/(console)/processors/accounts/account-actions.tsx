'use client';

import { useState } from 'react';
import { DANGER_OUTLINE_BUTTON, SECONDARY_BUTTON } from '../../../console-ui/buttons';
import { ActionError, Confirm } from '../../../console-ui/form-kit';
import { useConsoleLang } from '../../../console-ui/lang-context';
import { consoleClient } from '../../../console-ui/trpc-client';
import { useConsoleAction } from '../../../console-ui/use-console-action';
import { WebhookSetup, type ShownOnce } from './webhook-setup';

// One account's actions (admins): test the connection, pause or resume it (routing passes a
// paused account by), renew Culqi's webhook credentials, and remove one nothing was sent to.

type Account = {
  id: string;
  name: string;
  processor: string;
  enabled: boolean;
  notificationUrl: string;
};

const TEXT = {
  es: {
    test: 'Probar conexión',
    testOf: (name: string) => `Probar conexión de ${name}`,
    pause: 'Pausar',
    pauseOf: (name: string) => `Pausar ${name}`,
    resume: 'Activar',
    resumeOf: (name: string) => `Activar ${name}`,
    renew: 'Renovar credenciales de webhook',
    confirmRenew: (name: string) => `¿Renovar las credenciales de webhook de ${name}?`,
    renewEffect: 'Las actuales dejan de valer de inmediato: actualiza el webhook en CulqiPanel con las nuevas.',
    yesRenew: 'Sí, renovar',
    remove: 'Eliminar',
    removeOf: (name: string) => `Eliminar ${name}`,
    confirmRemove: (name: string) => `¿Eliminar la cuenta ${name}?`,
    removeEffect: 'Solo se puede eliminar una cuenta que no llevó pagos ni figura en una regla. No se puede deshacer.',
    yesRemove: 'Sí, eliminar',
    no: 'No',
  },
  en: {
    test: 'Test connection',
    testOf: (name: string) => `Test connection of ${name}`,
    pause: 'Pause',
    pauseOf: (name: string) => `Pause ${name}`,
    resume: 'Resume',
    resumeOf: (name: string) => `Resume ${name}`,
    renew: 'Renew webhook credentials',
    confirmRenew: (name: string) => `Renew the webhook credentials of ${name}?`,
    renewEffect: 'The current ones stop working at once: update the webhook in CulqiPanel with the new ones.',
    yesRenew: 'Yes, renew',
    remove: 'Remove',
    removeOf: (name: string) => `Remove ${name}`,
    confirmRemove: (name: string) => `Remove the account ${name}?`,
    removeEffect: 'Only an account that carried no payment and no rule names can be removed. This cannot be undone.',
    yesRemove: 'Yes, remove',
    no: 'No',
  },
};

export function AccountActions({ account }: { account: Account }) {
  const text = TEXT[useConsoleLang()];
  const action = useConsoleAction();
  const [confirming, setConfirming] = useState<'renew' | 'remove' | null>(null);
  const [shown, setShown] = useState<ShownOnce | null>(null);
  const accounts = consoleClient.console.processorAccounts;
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          disabled={action.busy}
          className={SECONDARY_BUTTON}
          aria-label={text.testOf(account.name)}
          onClick={() => action.run(() => accounts.test.mutate({ id: account.id }))}
        >
          {text.test}
        </button>
        <button
          type="button"
          disabled={action.busy}
          className={SECONDARY_BUTTON}
          aria-label={account.enabled ? text.pauseOf(account.name) : text.resumeOf(account.name)}
          onClick={() => action.run(() => accounts.update.mutate({ id: account.id, enabled: !account.enabled }))}
        >
          {account.enabled ? text.pause : text.resume}
        </button>
        {account.processor === 'culqi' ? (
          <button type="button" disabled={action.busy} className={SECONDARY_BUTTON} onClick={() => setConfirming('renew')}>
            {text.renew}
          </button>
        ) : null}
        <button
          type="button"
          disabled={action.busy}
          className={DANGER_OUTLINE_BUTTON}
          aria-label={text.removeOf(account.name)}
          onClick={() => setConfirming('remove')}
        >
          {text.remove}
        </button>
      </div>
      {confirming === 'renew' ? (
        <Confirm
          id={`renew-${account.id}`}
          title={text.confirmRenew(account.name)}
          body={text.renewEffect}
          yes={text.yesRenew}
          no={text.no}
          busy={action.busy}
          onYes={() =>
            action.run(
              () => accounts.renewWebhook.mutate({ id: account.id }),
              (renewed) => {
                setConfirming(null);
                setShown({ account: renewed.account, credentials: renewed.webhook });
              },
            )
          }
          onNo={() => setConfirming(null)}
        />
      ) : null}
      {confirming === 'remove' ? (
        <Confirm
          id={`remove-${account.id}`}
          title={text.confirmRemove(account.name)}
          body={text.removeEffect}
          yes={text.yesRemove}
          no={text.no}
          busy={action.busy}
          onYes={() =>
            action.run(
              () => accounts.remove.mutate({ id: account.id }),
              () => setConfirming(null),
            )
          }
          onNo={() => setConfirming(null)}
        />
      ) : null}
      <ActionError message={action.error} />
      {shown ? <WebhookSetup shown={shown} /> : null}
    </div>
  );
}
