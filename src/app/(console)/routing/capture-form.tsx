'use client';

import { ActionError, INPUT } from '../../console-ui/form-kit';
import { useConsoleLang } from '../../console-ui/lang-context';
import { consoleClient } from '../../console-ui/trpc-client';
import { useConsoleAction } from '../../console-ui/use-console-action';

const MODES = ['AUTOMATIC', 'MANUAL'] as const;

const TEXT = {
  es: {
    title: 'Captura (tarjetas)',
    mode: 'Cuándo capturar',
    modes: { AUTOMATIC: 'Al autorizar', MANUAL: 'Después: la capturas tú (todo o una parte)' },
    window: 'Plazo para capturar (días, 1 a 29): luego la autorización se anula',
    hint: 'Una solicitud puede pedir lo contrario con method_details.capture.',
    save: 'Guardar',
  },
  en: {
    title: 'Capture (cards)',
    mode: 'When to capture',
    modes: { AUTOMATIC: 'When authorized', MANUAL: 'Later: you capture it (all or a part)' },
    window: 'Window to capture (days, 1 to 29): then the authorization is voided',
    hint: 'A request may ask otherwise with method_details.capture.',
    save: 'Save',
  },
};

/** The merchant's capture for card payments and its window (docs/DECISIONS.md "Capture later"). */
export function CaptureForm(props: {
  merchantCode: string;
  setting: { mode: (typeof MODES)[number]; windowDays: number };
  canEdit: boolean;
}) {
  const text = TEXT[useConsoleLang()];
  const { busy, error, run } = useConsoleAction();
  const disabled = !props.canEdit || busy;
  return (
    <section aria-labelledby="capture" className="space-y-2">
      <h2 id="capture" className="text-lg font-semibold">
        {text.title}
      </h2>
      <p className="text-sm text-slate-600">{text.hint}</p>
      <form
        className="grid max-w-xl grid-cols-1 gap-2 sm:grid-cols-2"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          run(() =>
            consoleClient.console.routing.updateCapture.mutate({
              merchantCode: props.merchantCode,
              method: 'CARD',
              mode: form.get('mode') as (typeof MODES)[number],
              windowDays: Number(form.get('windowDays')),
            }),
          );
        }}
      >
        <label className="block text-sm">
          {text.mode}
          <select name="mode" defaultValue={props.setting.mode} className={INPUT} disabled={disabled}>
            {MODES.map((mode) => (
              <option key={mode} value={mode}>
                {text.modes[mode]}
              </option>
            ))}
          </select>
        </label>
        <label className="block text-sm">
          {text.window}
          <input
            name="windowDays"
            type="number"
            min={1}
            max={29}
            required
            defaultValue={props.setting.windowDays}
            className={INPUT}
            disabled={disabled}
          />
        </label>
        <ActionError message={error} />
        {props.canEdit ? (
          <button disabled={disabled} className="w-fit rounded-md bg-slate-800 px-3 py-1.5 text-sm text-white">
            {text.save}
          </button>
        ) : null}
      </form>
    </section>
  );
}
