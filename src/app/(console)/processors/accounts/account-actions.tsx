'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { DANGER_OUTLINE_BUTTON, SECONDARY_BUTTON } from '../../../console-ui/buttons';
import { ActionError, Confirm } from '../../../console-ui/form-kit';
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

export function AccountActions({ account }: { account: Account }) {
  const t = useTranslations('processors.accounts.accountActions');
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
          aria-label={t('testOf', { name: account.name })}
          onClick={() => action.run(() => accounts.test.mutate({ id: account.id }))}
        >
          {t('test')}
        </button>
        <button
          type="button"
          disabled={action.busy}
          className={SECONDARY_BUTTON}
          aria-label={account.enabled ? t('pauseOf', { name: account.name }) : t('resumeOf', { name: account.name })}
          onClick={() => action.run(() => accounts.update.mutate({ id: account.id, enabled: !account.enabled }))}
        >
          {account.enabled ? t('pause') : t('resume')}
        </button>
        {account.processor === 'culqi' ? (
          <button type="button" disabled={action.busy} className={SECONDARY_BUTTON} onClick={() => setConfirming('renew')}>
            {t('renew')}
          </button>
        ) : null}
        <button
          type="button"
          disabled={action.busy}
          className={DANGER_OUTLINE_BUTTON}
          aria-label={t('removeOf', { name: account.name })}
          onClick={() => setConfirming('remove')}
        >
          {t('remove')}
        </button>
      </div>
      {confirming === 'renew' ? (
        <Confirm
          id={`renew-${account.id}`}
          title={t('confirmRenew', { name: account.name })}
          body={t('renewEffect')}
          yes={t('yesRenew')}
          no={t('no')}
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
          title={t('confirmRemove', { name: account.name })}
          body={t('removeEffect')}
          yes={t('yesRemove')}
          no={t('no')}
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
