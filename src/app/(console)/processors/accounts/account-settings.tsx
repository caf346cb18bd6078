'use client';

import { useTranslations } from 'next-intl';
import { useId } from 'react';
import { PRIMARY_BUTTON, SECONDARY_BUTTON } from '../../../console-ui/buttons';
import { ActionError } from '../../../console-ui/form-kit';
import { MethodName } from '../../../console-ui/states';
import { KeyFields, keysOf, type KeyedProcessor } from './key-fields';
import { formText } from '../../../console-ui/form-text';
import { consoleClient } from '../../../console-ui/trpc-client';
import type { PaymentMethod } from '@/server/core/domain/states';
import { useConsoleAction } from '../../../console-ui/use-console-action';

// An account's methods and keys, changed after it was connected (admins): the methods it carries
// (routing passes it by for the others), and new keys when the processor rotated them (sealed at
// once, the connection test cleared until it runs again).

type Account = { id: string; name: string; processor: KeyedProcessor; methods: string[] };
type Method = PaymentMethod;

export function AccountSettings({ account, carried }: { account: Account; carried: string[] }) {
  const t = useTranslations('processors.accounts.accountSettings');
  const action = useConsoleAction({ VALIDATION: t('checkFields') });
  const id = useId();
  const accounts = consoleClient.console.processorAccounts;
  const processor = account.processor;
  return (
    <details className="text-sm" data-testid="account-settings">
      <summary className="cursor-pointer text-blue-800 underline">{t('summary', { name: account.name })}</summary>
      <div className="mt-2 space-y-3">
        <form
          aria-labelledby={`${id}-methods`}
          onSubmit={(event) => {
            event.preventDefault();
            const methods = new FormData(event.currentTarget).getAll('methods').map(String) as Method[];
            action.run(() => accounts.update.mutate({ id: account.id, methods }));
          }}
        >
          <fieldset disabled={action.busy} className="space-y-2">
            <legend id={`${id}-methods`}>{t('methods')}</legend>
            <div className="flex flex-wrap gap-3">
              {carried.map((method) => (
                <label key={method} className="flex items-center gap-1">
                  <input type="checkbox" name="methods" value={method} defaultChecked={account.methods.includes(method)} />
                  <MethodName method={method} />
                </label>
              ))}
            </div>
            <button type="submit" className={SECONDARY_BUTTON}>
              {t('saveMethods')}
            </button>
          </fieldset>
        </form>
        <form
          aria-labelledby={`${id}-keys`}
          onSubmit={(event) => {
            event.preventDefault();
            const element = event.currentTarget;
            const form = new FormData(element);
            const keys = {
              id: account.id,
              publicKey: formText(form, 'publicKey').trim(),
              secretKey: formText(form, 'secretKey').trim(),
            };
            action.run(
              () => accounts.replace.mutate({ ...keys, ...keysOf(processor, form) }),
              () => element.reset(),
            );
          }}
        >
          <fieldset disabled={action.busy} className="space-y-2">
            <legend id={`${id}-keys`}>{t('keys')}</legend>
            <KeyFields id={id} processor={processor} />
            <button type="submit" className={PRIMARY_BUTTON}>
              {t('saveKeys')}
            </button>
          </fieldset>
        </form>
        <ActionError message={action.error} />
      </div>
    </details>
  );
}
