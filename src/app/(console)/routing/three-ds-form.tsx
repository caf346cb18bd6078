'use client';

import { ActionError, INPUT } from '../../console-ui/form-kit';
import { useConsoleLang } from '../../console-ui/lang-context';
import { consoleClient } from '../../console-ui/trpc-client';
import { useConsoleAction } from '../../console-ui/use-console-action';

const MODES = ['WHEN_REQUIRED', 'ALWAYS', 'OVER', 'NEVER'] as const;

const TEXT = {
  es: {
    title: '3-D Secure (tarjetas)',
    mode: 'Cuándo autenticar',
    modes: {
      WHEN_REQUIRED: 'Solo cuando el procesador lo pide',
      ALWAYS: 'Siempre',
      OVER: 'Desde un importe',
      NEVER: 'Nunca',
    },
    overAmount: 'Importe (céntimos), solo con «Desde un importe»',
    save: 'Guardar',
  },
  en: {
    title: '3-D Secure (cards)',
    mode: 'When to authenticate',
    modes: { WHEN_REQUIRED: 'Only when the processor asks', ALWAYS: 'Always', OVER: 'Over an amount', NEVER: 'Never' },
    overAmount: 'Amount (cents), only with "Over an amount"',
    save: 'Save',
  },
};

/** The merchant's 3-D Secure setting (docs/ORCHESTRATION.md 5); each refused field says why. */
export function ThreeDsForm(props: {
  merchantCode: string;
  setting: { mode: (typeof MODES)[number]; overAmount: string | null };
  canEdit: boolean;
}) {
  const text = TEXT[useConsoleLang()];
  const { busy, error, run } = useConsoleAction();
  const disabled = !props.canEdit || busy;
  return (
    <section aria-labelledby="three-ds" className="space-y-2">
      <h2 id="three-ds" className="text-lg font-semibold">
        {text.title}
      </h2>
      <form
        className="grid max-w-xl grid-cols-1 gap-2 sm:grid-cols-2"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const given = form.get('overAmount');
          const overAmount = typeof given === 'string' ? given.trim() : '';
          run(() =>
            consoleClient.console.routing.updateThreeDs.mutate({
              merchantCode: props.merchantCode,
              setting: { mode: form.get('mode') as (typeof MODES)[number], overAmount: overAmount || null },
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
          {text.overAmount}
          <input
            name="overAmount"
            inputMode="numeric"
            defaultValue={props.setting.overAmount ?? ''}
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
