'use client';

import { useTranslations } from 'next-intl';
import { consoleClient } from '../../console-ui/trpc-client';
import { ConfirmThenAct } from '../../console-ui/confirm-then-act';

/** The cut-off now: for every merchant, or only the one named (a merchant's page). */
export function SettleNow({ awaiting, merchantCode }: { awaiting: number; merchantCode?: string }) {
  const t = useTranslations('platform.settleNow');
  return (
    <ConfirmThenAct
      id="settle"
      label={merchantCode ? t('runOne') : t('run')}
      title={t('title')}
      body={t('body', { count: awaiting, one: String(merchantCode !== undefined) })}
      yes={t('yes')}
      no={t('no')}
      act={() => consoleClient.console.platform.settleNow.mutate({ merchantCode })}
      done={(result) => t('result', { count: result.settled })}
      doneTestId="settled-result"
    />
  );
}
