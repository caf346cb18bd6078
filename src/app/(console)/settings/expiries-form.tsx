'use client';

import { useState } from 'react';
import { consoleClient } from '../../console-ui/trpc-client';
import { INPUT, SaveRow } from '../../console-ui/form-kit';
import { SECONDARY_BUTTON } from '../../console-ui/buttons';
import { useConsoleLang } from '../../console-ui/lang-context';
import { useConsoleAction } from '../../console-ui/use-console-action';
import { duration } from './duration';

type Method = 'BANK_TRANSFER' | 'CUOTEALO' | 'PAGOEFECTIVO' | 'QR';
type Expiry = { method: Method; defaultSeconds: number; overrideSeconds: number | null };

const MAX_MINUTES = 43_200;

const TEXT = {
  es: {
    explain:
      'Cuánto tiempo tiene el pagador para completar un pago pendiente. En minutos, de 1 a 43 200 (30 días); vacío usa el valor por defecto. Solo cambia los pagos nuevos.',
    minutes: 'minutos',
    defaultIs: (value: string) => `Por defecto: ${value}`,
    current: (value: string, isDefault: boolean) => `Vigente: ${value}${isDefault ? ' (por defecto)' : ''}`,
    useDefault: 'Usar el valor por defecto',
    save: 'Guardar vencimientos',
    saved: 'Vencimientos guardados.',
  },
  en: {
    explain:
      'How long the payer has to complete a pending payment. In minutes, from 1 to 43,200 (30 days); empty uses the default. Only new payments change.',
    minutes: 'minutes',
    defaultIs: (value: string) => `Default: ${value}`,
    current: (value: string, isDefault: boolean) => `Now: ${value}${isDefault ? ' (default)' : ''}`,
    useDefault: 'Use the default',
    save: 'Save expiries',
    saved: 'Expiries saved.',
  },
};

/** The field's starting text: the override in whole minutes, else empty (the default, or seconds an operator set). */
const initial = (expiry: Expiry) =>
  expiry.overrideSeconds !== null && expiry.overrideSeconds % 60 === 0 ? String(expiry.overrideSeconds / 60) : '';

export function ExpiriesForm({
  merchantCode,
  expiries,
  canEdit,
}: {
  merchantCode?: string;
  expiries: Expiry[];
  canEdit: boolean;
}) {
  const lang = useConsoleLang();
  const text = TEXT[lang];
  const action = useConsoleAction();
  const [saved, setSaved] = useState(false);
  // Only the fields the user touched are sent: the others keep what is stored.
  const [fields, setFields] = useState(() =>
    Object.fromEntries(expiries.map((expiry) => [expiry.method, { value: initial(expiry), touched: false }])),
  );
  const edit = (method: Method, value: string) => {
    setSaved(false);
    setFields((now) => ({ ...now, [method]: { value, touched: true } }));
  };
  return (
    <form
      className="space-y-3"
      onSubmit={(event) => {
        event.preventDefault();
        const expiryMinutes = Object.fromEntries(
          expiries
            .filter((expiry) => fields[expiry.method]?.touched)
            .map((expiry) => {
              const value = fields[expiry.method]!.value.trim();
              return [expiry.method, value === '' ? null : Number(value)];
            }),
        );
        setSaved(false);
        action.run(
          () => consoleClient.console.settings.updateExpiries.mutate({ merchantCode, expiryMinutes }),
          () => {
            setSaved(true);
            setFields((now) =>
              Object.fromEntries(Object.entries(now).map(([method, field]) => [method, { ...field, touched: false }])),
            );
          },
        );
      }}
    >
      <p className="text-sm text-slate-600">{text.explain}</p>
      <fieldset disabled={!canEdit || action.busy} className="grid gap-3 sm:grid-cols-2">
        {expiries.map((expiry) => {
          const id = `expiry-${expiry.method}`;
          const current = expiry.overrideSeconds ?? expiry.defaultSeconds;
          return (
            <div key={expiry.method} className="rounded-md border border-slate-200 p-3" data-testid={id}>
              <label htmlFor={id} className="block text-sm">
                <code>{expiry.method}</code> ({text.minutes})
              </label>
              <div className="flex items-center gap-2">
                <input
                  id={id}
                  name={expiry.method}
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={MAX_MINUTES}
                  step={1}
                  value={fields[expiry.method]?.value ?? ''}
                  placeholder={String(expiry.defaultSeconds / 60)}
                  onChange={(event) => edit(expiry.method, event.target.value)}
                  aria-describedby={`${id}-hint`}
                  className={INPUT}
                />
                {canEdit ? (
                  <button
                    type="button"
                    aria-label={`${text.useDefault} (${expiry.method})`}
                    className={`${SECONDARY_BUTTON} mt-1 whitespace-nowrap`}
                    onClick={() => edit(expiry.method, '')}
                  >
                    {text.useDefault}
                  </button>
                ) : null}
              </div>
              <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
                {text.defaultIs(duration(expiry.defaultSeconds, lang))} ·{' '}
                {text.current(duration(current, lang), expiry.overrideSeconds === null)}
              </p>
            </div>
          );
        })}
      </fieldset>
      <SaveRow show={canEdit} disabled={action.busy} error={action.error} label={text.save} saved={saved ? text.saved : null} />
    </form>
  );
}
