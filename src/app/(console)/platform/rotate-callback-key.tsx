'use client';

import { useTranslations } from 'next-intl';
import { consoleClient } from '../../console-ui/trpc-client';
import { ConfirmThenAct } from '../../console-ui/confirm-then-act';

export function RotateCallbackKey() {
  const t = useTranslations('platform.rotateCallbackKey');
  return (
    <ConfirmThenAct
      id="rotate-callback-key"
      label={t('rotate')}
      title={t('title')}
      body={t('body')}
      yes={t('yes')}
      no={t('no')}
      act={() => consoleClient.console.platform.rotateCallbackKey.mutate({})}
      done={(result) => t('done', { kid: result.kid })}
      doneTestId="rotated-key"
    />
  );
}
