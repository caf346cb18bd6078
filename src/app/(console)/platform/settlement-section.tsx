import { useTranslations } from 'next-intl';
import { Section } from '../../console-ui/form-kit';
import { SettleNow } from './settle-now';

type Props = { awaiting: number; merchantCode?: string; canEdit: boolean };

/** What awaits settlement (everywhere, or at one merchant) and, for platform admins, the cut-off now. */
export function SettlementSection({ awaiting, merchantCode, canEdit }: Props) {
  const t = useTranslations('platform.settlementSection');
  return (
    <Section id="settlement" title={t('title')}>
      <p className="text-sm" data-testid="awaiting-settlement">
        {t('awaiting', { count: awaiting })}
      </p>
      <p className="text-sm text-slate-600">{t('scheduled')}</p>
      {canEdit ? <SettleNow awaiting={awaiting} merchantCode={merchantCode} /> : null}
    </Section>
  );
}
