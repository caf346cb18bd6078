'use client';

import { useId } from 'react';
import { PRIMARY_BUTTON, SECONDARY_BUTTON } from '../../../console-ui/buttons';
import { ActionError } from '../../../console-ui/form-kit';
import { KeyFields } from './key-fields';
import { formText } from '../../../console-ui/form-text';
import { useConsoleLang } from '../../../console-ui/lang-context';
import { consoleClient } from '../../../console-ui/trpc-client';
import { useConsoleAction, type KnownErrors } from '../../../console-ui/use-console-action';

// An account's methods and keys, changed after it was connected (admins): the methods it carries
// (routing passes it by for the others), and new keys when the processor rotated them (sealed at
// once, the connection test cleared until it runs again).

type Account = { id: string; name: string; processor: string; methods: string[] };
type Method = 'CARD' | 'YAPE' | 'PAGOEFECTIVO' | 'CUOTEALO';

const TEXT = {
  es: {
    summary: (name: string) => `Cambiar medios o llaves de ${name}`,
    methods: 'Medios que lleva',
    saveMethods: 'Guardar medios',
    keys: 'Llaves nuevas',
    saveKeys: 'Reemplazar llaves',
    checkFields: 'Revisa los campos: las llaves deben ser del procesador y del entorno de la cuenta.',
  },
  en: {
    summary: (name: string) => `Change the methods or keys of ${name}`,
    methods: 'Methods it carries',
    saveMethods: 'Save methods',
    keys: 'New keys',
    saveKeys: 'Replace keys',
    checkFields: "Check the fields: the keys must be the processor's and of the account's environment.",
  },
};

const KNOWN: KnownErrors = { VALIDATION: { es: TEXT.es.checkFields, en: TEXT.en.checkFields } };

export function AccountSettings({ account, carried }: { account: Account; carried: string[] }) {
  const lang = useConsoleLang();
  const text = TEXT[lang];
  const action = useConsoleAction(KNOWN);
  const id = useId();
  const accounts = consoleClient.console.processorAccounts;
  return (
    <details className="text-sm" data-testid="account-settings">
      <summary className="cursor-pointer text-blue-800 underline">{text.summary(account.name)}</summary>
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
            <legend id={`${id}-methods`}>{text.methods}</legend>
            <div className="flex flex-wrap gap-3">
              {carried.map((method) => (
                <label key={method} className="flex items-center gap-1">
                  <input type="checkbox" name="methods" value={method} defaultChecked={account.methods.includes(method)} />
                  {method}
                </label>
              ))}
            </div>
            <button type="submit" className={SECONDARY_BUTTON}>
              {text.saveMethods}
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
              () =>
                account.processor === 'culqi'
                  ? accounts.replace.mutate({ ...keys, processor: 'culqi' })
                  : accounts.replace.mutate({
                      ...keys,
                      processor: 'mercadopago',
                      webhookSecret: formText(form, 'webhookSecret').trim(),
                    }),
              () => element.reset(),
            );
          }}
        >
          <fieldset disabled={action.busy} className="space-y-2">
            <legend id={`${id}-keys`}>{text.keys}</legend>
            <KeyFields id={id} processor={account.processor === 'mercadopago' ? 'mercadopago' : 'culqi'} />
            <button type="submit" className={PRIMARY_BUTTON}>
              {text.saveKeys}
            </button>
          </fieldset>
        </form>
        <ActionError message={action.error} />
      </div>
    </details>
  );
}
