'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { consoleClient } from '../../../../console-ui/trpc-client';
import { formText } from '../../../../console-ui/form-text';
import { ActionError, Confirm, Field, Select } from '../../../../console-ui/form-kit';
import { PRIMARY_BUTTON, SECONDARY_BUTTON } from '../../../../console-ui/buttons';
import { useConsoleAction } from '../../../../console-ui/use-console-action';

type Props = {
  merchantCode: string;
  current: { code: string; name: string } | null;
  facilitatorCodes: string[];
  canEdit: boolean;
};

export function FacilitatorLink({ merchantCode, current, facilitatorCodes, canEdit }: Props) {
  const t = useTranslations('platform.merchants.detail.facilitatorLink');
  const action = useConsoleAction();
  const [confirming, setConfirming] = useState(false);
  const platform = consoleClient.console.platform;
  return (
    <div className="space-y-3 text-sm">
      <p data-testid="current-facilitator">
        {t('current')}:{' '}
        {current ? (
          <>
            <code className="font-semibold">{current.code}</code> — {current.name}
          </>
        ) : (
          t('none')
        )}
      </p>
      {canEdit && current && !confirming ? (
        <button type="button" disabled={action.busy} className={SECONDARY_BUTTON} onClick={() => setConfirming(true)}>
          {t('unlink')}
        </button>
      ) : null}
      {confirming && current ? (
        <Confirm
          id="unlink"
          title={t('unlinkTitle', { code: current.code })}
          body={t('unlinkBody')}
          yes={t('yes')}
          no={t('no')}
          busy={action.busy}
          onYes={() =>
            action.run(
              () => platform.unlinkMerchant.mutate({ merchantCode }),
              () => setConfirming(false),
            )
          }
          onNo={() => setConfirming(false)}
        />
      ) : null}
      {canEdit && facilitatorCodes.length === 0 ? <p className="text-slate-600">{t('noFacilitators')}</p> : null}
      {canEdit && facilitatorCodes.length > 0 ? (
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            const facilitatorCode = formText(new FormData(event.currentTarget), 'facilitatorCode');
            action.run(() => platform.linkMerchant.mutate({ facilitatorCode, merchantCode }));
          }}
        >
          <Field id="facilitator-choice" label={t('choose')}>
            <Select
              id="facilitator-choice"
              name="facilitatorCode"
              defaultValue={current?.code ?? facilitatorCodes[0]!}
              options={facilitatorCodes.map((code) => ({ value: code, label: code }))}
            />
          </Field>
          <button type="submit" disabled={action.busy} className={PRIMARY_BUTTON}>
            {t('link')}
          </button>
        </form>
      ) : null}
      <ActionError message={action.error} />
    </div>
  );
}
