'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { consoleClient } from '../../console-ui/trpc-client';
import { INPUT, SaveRow } from '../../console-ui/form-kit';
import { SECONDARY_BUTTON } from '../../console-ui/buttons';
import { useConsoleLang } from '../../console-ui/lang-context';
import { useConsoleAction } from '../../console-ui/use-console-action';
import { useMethodLabel } from '../../console-ui/states';
import { duration } from './duration';

type Method = 'BANK_TRANSFER' | 'CUOTEALO' | 'PAGOEFECTIVO' | 'QR';
type Expiry = { method: Method; defaultSeconds: number; overrideSeconds: number | null };

const MAX_MINUTES = 43_200;

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
  const t = useTranslations('settings.expiriesForm');
  const methodLabel = useMethodLabel();
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
      <p className="text-sm text-slate-600">{t('explain')}</p>
      <fieldset disabled={!canEdit || action.busy} className="grid gap-3 sm:grid-cols-2">
        {expiries.map((expiry) => {
          const id = `expiry-${expiry.method}`;
          const current = expiry.overrideSeconds ?? expiry.defaultSeconds;
          return (
            <div key={expiry.method} className="rounded-md border border-slate-200 p-3" data-testid={id}>
              <label htmlFor={id} className="block text-sm">
                {methodLabel(expiry.method)} ({t('minutes')})
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
                    aria-label={`${t('useDefault')} (${methodLabel(expiry.method)})`}
                    className={`${SECONDARY_BUTTON} mt-1 whitespace-nowrap`}
                    onClick={() => edit(expiry.method, '')}
                  >
                    {t('useDefault')}
                  </button>
                ) : null}
              </div>
              <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
                {t('defaultIs', { value: duration(expiry.defaultSeconds, lang) })} ·{' '}
                {t('current', { value: duration(current, lang), isDefault: String(expiry.overrideSeconds === null) })}
              </p>
            </div>
          );
        })}
      </fieldset>
      <SaveRow show={canEdit} disabled={action.busy} error={action.error} label={t('save')} saved={saved ? t('saved') : null} />
    </form>
  );
}
