'use client';

import { useTranslations } from 'next-intl';
import { INPUT } from '../../console-ui/form-kit';
import { consoleClient } from '../../console-ui/trpc-client';
import { ModeSelect, SettingSection } from '../../console-ui/setting-section';

const MODES = ['AUTOMATIC', 'MANUAL'] as const;

/** The merchant's capture for card payments and its window (docs/DECISIONS.md "Capture later"). */
export function CaptureForm(props: {
  merchantCode: string;
  setting: { mode: (typeof MODES)[number]; windowDays: number };
  canEdit: boolean;
}) {
  const t = useTranslations('routing.captureForm');
  return (
    <SettingSection
      id="capture"
      title={t('title')}
      intro={t('hint')}
      canEdit={props.canEdit}
      saveLabel={t('save')}
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
          <ModeSelect
            label={t('mode')}
            modes={MODES}
            words={{ AUTOMATIC: t('modes.AUTOMATIC'), MANUAL: t('modes.MANUAL') }}
            value={props.setting.mode}
            disabled={disabled}
          />
          <label className="block text-sm">
            {t('window')}
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
