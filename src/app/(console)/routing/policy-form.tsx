'use client';

import { useTranslations } from 'next-intl';
import type { PaymentMethod } from '@/server/core/domain/states';
import type { RetryPolicy } from '@/server/core/orchestration';
import { INPUT } from '../../console-ui/form-kit';
import { consoleClient } from '../../console-ui/trpc-client';
import { SettingSection } from '../../console-ui/setting-section';

/** The retry policy of one method (docs/ORCHESTRATION.md 3). */
export function PolicyForm(props: { merchantCode: string; method: PaymentMethod; policy: RetryPolicy; canEdit: boolean }) {
  const t = useTranslations('routing.policyForm');
  return (
    <SettingSection
      id="policy"
      title={t('title')}
      intro={t('intro')}
      canEdit={props.canEdit}
      saveLabel={t('save')}
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
            {t('maxAttempts')}
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
            {t('budget')}
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
            {t('soft')}
          </label>
        </>
      )}
    </SettingSection>
  );
}
