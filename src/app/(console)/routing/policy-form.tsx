'use client';

import type { PaymentMethod } from '@/server/core/domain/states';
import type { RetryPolicy } from '@/server/core/orchestration';
import { INPUT } from '../../console-ui/form-kit';
import { useConsoleLang } from '../../console-ui/lang-context';
import { consoleClient } from '../../console-ui/trpc-client';
import { SettingSection } from '../../console-ui/setting-section';

const TEXT = {
  es: {
    title: 'Reintentos',
    intro:
      'Las fallas técnicas pasan al siguiente procesador; los rechazos duros nunca. Los rechazos blandos (05, 51, 61) solo si lo activas.',
    maxAttempts: 'Intentos como máximo (1 a 3)',
    budget: 'Tiempo total (ms)',
    soft: 'Reintentar rechazos blandos en otro procesador',
    save: 'Guardar',
  },
  en: {
    title: 'Retries',
    intro:
      'Technical failures move on to the next processor; hard declines never. Soft declines (05, 51, 61) only if you turn it on.',
    maxAttempts: 'At most this many attempts (1 to 3)',
    budget: 'Time budget (ms)',
    soft: 'Retry soft declines on another processor',
    save: 'Save',
  },
};

/** The retry policy of one method (docs/ORCHESTRATION.md 3). */
export function PolicyForm(props: { merchantCode: string; method: PaymentMethod; policy: RetryPolicy; canEdit: boolean }) {
  const text = TEXT[useConsoleLang()];
  return (
    <SettingSection
      id="policy"
      title={text.title}
      intro={text.intro}
      canEdit={props.canEdit}
      saveLabel={text.save}
      submit={(form) =>
        consoleClient.console.routing.updatePolicy.mutate({
          merchantCode: props.merchantCode,
          method: props.method,
          maxAttempts: Number(form.get('maxAttempts')),
          budgetMs: Number(form.get('budgetMs')),
          retrySoftDeclines: form.get('retrySoftDeclines') === 'on',
        })
      }
    >
      {(disabled) => (
        <>
          <label className="block text-sm">
            {text.maxAttempts}
            <input
              name="maxAttempts"
              type="number"
              min={1}
              max={3}
              defaultValue={props.policy.maxAttempts}
              className={INPUT}
              disabled={disabled}
            />
          </label>
          <label className="block text-sm">
            {text.budget}
            <input
              name="budgetMs"
              type="number"
              min={1000}
              max={30000}
              step={500}
              defaultValue={props.policy.budgetMs}
              className={INPUT}
              disabled={disabled}
            />
          </label>
          <label className="flex items-center gap-2 text-sm sm:col-span-2">
            <input name="retrySoftDeclines" type="checkbox" defaultChecked={props.policy.retrySoftDeclines} disabled={disabled} />
            {text.soft}
          </label>
        </>
      )}
    </SettingSection>
  );
}
