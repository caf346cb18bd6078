'use client';

import { INPUT } from '../../console-ui/form-kit';
import { useConsoleLang } from '../../console-ui/lang-context';
import { consoleClient } from '../../console-ui/trpc-client';
import { ModeSelect, SettingSection } from '../../console-ui/setting-section';

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
  return (
    <SettingSection
      id="capture"
      title={text.title}
      intro={text.hint}
      canEdit={props.canEdit}
      saveLabel={text.save}
      submit={(form) =>
        consoleClient.console.routing.updateCapture.mutate({
          merchantCode: props.merchantCode,
          method: 'CARD',
          mode: form.get('mode') as (typeof MODES)[number],
          windowDays: Number(form.get('windowDays')),
        })
      }
    >
      {(disabled) => (
        <>
          <ModeSelect label={text.mode} modes={MODES} words={text.modes} value={props.setting.mode} disabled={disabled} />
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
        </>
      )}
    </SettingSection>
  );
}
