'use client';

import { useTranslations } from 'next-intl';
import { useId, useState } from 'react';
import { PRIMARY_BUTTON } from '../../../console-ui/buttons';
import { ActionError, Field, INPUT } from '../../../console-ui/form-kit';
import { MethodName } from '../../../console-ui/states';
import { KeyFields, keysOf, type KeyedProcessor } from './key-fields';
import { formText } from '../../../console-ui/form-text';
import { consoleClient } from '../../../console-ui/trpc-client';
import type { PaymentMethod } from '@/server/core/domain/states';
import { useConsoleAction } from '../../../console-ui/use-console-action';
import { WebhookSetup, type ShownOnce } from './webhook-setup';

// Connecting a processor account (admins): the processor, a name, the environment, the methods it
// carries, and the keys from the processor's panel. The secret key (and Mercado Pago's webhook
// secret) go in password fields and are never shown again; Culqi's webhook credentials are made
// by the service and shown once here, with the URL to set in CulqiPanel.

type Processor = { id: KeyedProcessor; name: string; methods: string[] };

export function ConnectAccount({ merchantCode, processors }: { merchantCode?: string; processors: Processor[] }) {
  const t = useTranslations('processors.accounts.connectAccount');
  const action = useConsoleAction({ VALIDATION: t('checkFields'), STATE_CONFLICT: t('tooMany') });
  const id = useId();
  const [processor, setProcessor] = useState<Processor['id']>(processors[0]?.id ?? 'culqi');
  const [shown, setShown] = useState<ShownOnce | null>(null);
  const methods = processors.find((each) => each.id === processor)?.methods ?? [];
  return (
    <div className="space-y-3">
      {shown ? <WebhookSetup shown={shown} /> : null}
      <form
        aria-labelledby={`${id}-heading`}
        className="space-y-3 rounded-lg border border-slate-200 bg-white p-3"
        data-testid="connect-account"
        onSubmit={(event) => {
          event.preventDefault();
          const element = event.currentTarget;
          const form = new FormData(element);
          const common = {
            merchantCode,
            name: formText(form, 'name').trim(),
            environment: formText(form, 'environment') === 'live' ? ('live' as const) : ('test' as const),
            methods: form.getAll('methods').map(String) as PaymentMethod[],
            publicKey: formText(form, 'publicKey').trim(),
            secretKey: formText(form, 'secretKey').trim(),
          };
          setShown(null);
          action.run(
            () => consoleClient.console.processorAccounts.connect.mutate({ ...common, ...keysOf(processor, form) }),
            (connected) => {
              setShown({ account: connected.account, credentials: connected.webhook });
              element.reset();
            },
          );
        }}
      >
        <h2 id={`${id}-heading`} className="text-lg font-semibold">
          {t('heading')}
        </h2>
        <fieldset disabled={action.busy} className="grid gap-3 sm:grid-cols-3">
          <Field id={`${id}-processor`} label={t('processor')}>
            <select
              id={`${id}-processor`}
              name="processor"
              className={INPUT}
              value={processor}
              onChange={(event) => setProcessor(event.target.value as Processor['id'])}
            >
              {processors.map((each) => (
                <option key={each.id} value={each.id}>
                  {each.name}
                </option>
              ))}
            </select>
          </Field>
          <Field id={`${id}-name`} label={t('name')}>
            <input id={`${id}-name`} name="name" required maxLength={128} className={INPUT} />
          </Field>
          <Field id={`${id}-environment`} label={t('environment')}>
            <select id={`${id}-environment`} name="environment" className={INPUT} defaultValue="test">
              <option value="test">{t('test')}</option>
              <option value="live">{t('live')}</option>
            </select>
          </Field>
        </fieldset>
        <fieldset disabled={action.busy} className="text-sm">
          <legend className="mb-1">{t('methods')}</legend>
          <div className="flex flex-wrap gap-4">
            {methods.map((method) => (
              <label key={`${processor}-${method}`} className="flex items-center gap-1">
                <input type="checkbox" name="methods" value={method} defaultChecked={method === 'CARD'} />
                <MethodName method={method} />
              </label>
            ))}
          </div>
        </fieldset>
        <fieldset disabled={action.busy} className="grid gap-3 sm:grid-cols-2">
          <KeyFields id={id} processor={processor} />
        </fieldset>
        <ActionError message={action.error} />
        <button type="submit" disabled={action.busy} className={PRIMARY_BUTTON}>
          {t('connect')}
        </button>
      </form>
    </div>
  );
}
