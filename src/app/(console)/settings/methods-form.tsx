'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { consoleClient } from '../../console-ui/trpc-client';
import { SaveRow } from '../../console-ui/form-kit';
import { MethodName } from '../../console-ui/states';
import { useConsoleAction } from '../../console-ui/use-console-action';

const METHODS = ['CARD', 'YAPE', 'BANK_TRANSFER', 'CUOTEALO', 'PAGOEFECTIVO', 'QR'] as const;
type Method = (typeof METHODS)[number];

type Props = { merchantCode?: string; enabledMethods: string[]; canEdit: boolean };

export function MethodsForm({ merchantCode, enabledMethods, canEdit }: Props) {
  const t = useTranslations('settings.methodsForm');
  const action = useConsoleAction();
  const [chosen, setChosen] = useState<Method[]>(METHODS.filter((method) => enabledMethods.includes(method)));
  const [saved, setSaved] = useState(false);
  const empty = chosen.length === 0;
  return (
    <form
      className="space-y-3"
      onSubmit={(event) => {
        event.preventDefault();
        setSaved(false);
        action.run(
          () => consoleClient.console.settings.updateMethods.mutate({ merchantCode, enabledMethods: chosen }),
          () => setSaved(true),
        );
      }}
    >
      <fieldset disabled={!canEdit || action.busy} aria-describedby="methods-explain">
        <legend className="sr-only">{t('legend')}</legend>
        <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
          {METHODS.map((method) => (
            <label key={method} className="flex items-center gap-2 rounded-md border border-slate-200 px-3 py-2 text-sm">
              <input
                type="checkbox"
                name={method}
                checked={chosen.includes(method)}
                onChange={(event) => {
                  setSaved(false);
                  setChosen((now) => METHODS.filter((one) => (one === method ? event.target.checked : now.includes(one))));
                }}
                className="h-4 w-4 focus-visible:ring-4 focus-visible:ring-slate-300"
              />
              <MethodName method={method} />
            </label>
          ))}
        </div>
      </fieldset>
      <p id="methods-explain" className="text-sm text-slate-600">
        {t('explain')}
      </p>
      {empty && canEdit ? (
        <p role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {t('none')}
        </p>
      ) : null}
      <SaveRow
        show={canEdit}
        disabled={action.busy || empty}
        error={action.error}
        label={t('save')}
        saved={saved ? t('saved') : null}
      />
    </form>
  );
}
