'use client';

import { useState } from 'react';
import { consoleClient } from '../../console-ui/trpc-client';
import { SaveRow } from '../../console-ui/form-kit';
import { useConsoleLang } from '../../console-ui/lang-context';
import { useConsoleAction } from '../../console-ui/use-console-action';

const METHODS = ['CARD', 'YAPE', 'BANK_TRANSFER', 'CUOTEALO', 'PAGOEFECTIVO', 'QR'] as const;
type Method = (typeof METHODS)[number];

const TEXT = {
  es: {
    legend: 'Medios habilitados',
    explain:
      'Un cargo con un medio deshabilitado se rechaza con HTTP 422, código 42 («El medio de pago no lo permite»). Las operaciones ya creadas no cambian.',
    none: 'Deja al menos un medio habilitado: sin ninguno, la API rechazaría todos los cobros de este comercio.',
    save: 'Guardar medios',
    saved: 'Medios guardados.',
  },
  en: {
    legend: 'Enabled methods',
    explain:
      'A charge with a disabled method is refused with HTTP 422, code 42 ("The payment method does not allow it"). Operations already created do not change.',
    none: 'Keep at least one method enabled: with none, the API would refuse every charge of this merchant.',
    save: 'Save methods',
    saved: 'Methods saved.',
  },
};

type Props = { merchantCode?: string; enabledMethods: string[]; canEdit: boolean };

export function MethodsForm({ merchantCode, enabledMethods, canEdit }: Props) {
  const text = TEXT[useConsoleLang()];
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
        <legend className="sr-only">{text.legend}</legend>
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
              <code>{method}</code>
            </label>
          ))}
        </div>
      </fieldset>
      <p id="methods-explain" className="text-sm text-slate-600">
        {text.explain}
      </p>
      {empty && canEdit ? (
        <p role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {text.none}
        </p>
      ) : null}
      <SaveRow
        show={canEdit}
        disabled={action.busy || empty}
        error={action.error}
        label={text.save}
        saved={saved ? text.saved : null}
      />
    </form>
  );
}
