'use client';

import { useTranslations } from 'next-intl';
import { centsOfInput, inputOfCents } from '../../console-ui/amount-input';
import { INPUT } from '../../console-ui/form-kit';
import { consoleClient } from '../../console-ui/trpc-client';
import { FormProblem } from '../../console-ui/use-console-action';
import { ModeSelect, SettingSection } from '../../console-ui/setting-section';

const MODES = ['WHEN_REQUIRED', 'ALWAYS', 'OVER', 'NEVER'] as const;

/** The merchant's 3-D Secure setting (docs/ORCHESTRATION.md 5); each refused field says why. */
export function ThreeDsForm(props: {
  merchantCode: string;
  setting: { mode: (typeof MODES)[number]; overAmount: string | null };
  canEdit: boolean;
}) {
  const t = useTranslations('routing.threeDsForm');
  return (
    <SettingSection
      id="three-ds"
      title={t('title')}
      canEdit={props.canEdit}
      saveLabel={t('save')}
      submit={(form) => {
        const given = form.get('overAmount');
        const typed = typeof given === 'string' ? given.trim() : '';
        // Typed in the currency's unit, stored in cents: a typed amount that is none is refused here.
        const overAmount = typed === '' ? null : centsOfInput(typed);
        if (typed !== '' && overAmount === null) return Promise.reject(new FormProblem(t('badAmount')));
        return consoleClient.console.routing.updateThreeDs.mutate({
          merchantCode: props.merchantCode,
          setting: { mode: form.get('mode') as (typeof MODES)[number], overAmount },
        });
      }}
    >
      {(disabled) => (
        <>
          <ModeSelect
            label={t('mode')}
            modes={MODES}
            words={{
              WHEN_REQUIRED: t('modes.WHEN_REQUIRED'),
              ALWAYS: t('modes.ALWAYS'),
              OVER: t('modes.OVER'),
              NEVER: t('modes.NEVER'),
            }}
            value={props.setting.mode}
            disabled={disabled}
          />
          <label className="block text-sm">
            {t('overAmount')}
            <input
              name="overAmount"
              inputMode="decimal"
              defaultValue={props.setting.overAmount === null ? '' : inputOfCents(props.setting.overAmount)}
              className={INPUT}
              disabled={disabled}
            />
          </label>
        </>
      )}
    </SettingSection>
  );
}
