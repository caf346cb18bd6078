'use client';

import { INPUT } from '../../console-ui/form-kit';
import { useConsoleLang } from '../../console-ui/lang-context';
import { consoleClient } from '../../console-ui/trpc-client';
import { ModeSelect, SettingSection } from '../../console-ui/setting-section';

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
  return (
    <SettingSection
      id="three-ds"
      title={text.title}
      canEdit={props.canEdit}
      saveLabel={text.save}
      submit={(form) => {
        const given = form.get('overAmount');
        const overAmount = typeof given === 'string' ? given.trim() : '';
        return consoleClient.console.routing.updateThreeDs.mutate({
          merchantCode: props.merchantCode,
          setting: { mode: form.get('mode') as (typeof MODES)[number], overAmount: overAmount || null },
        });
      }}
    >
      {(disabled) => (
        <>
          <ModeSelect label={text.mode} modes={MODES} words={text.modes} value={props.setting.mode} disabled={disabled} />
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
        </>
      )}
    </SettingSection>
  );
}
