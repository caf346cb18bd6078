import type { ConsoleLang } from '../../console-ui/i18n';
import { Section } from '../../console-ui/form-kit';
import { SettleNow } from './settle-now';

const TEXT = {
  es: {
    title: 'Liquidación',
    awaiting: (count: number) =>
      count === 1
        ? 'Hay 1 transacción AUTORIZADO esperando el corte de liquidación.'
        : `Hay ${count} transacciones AUTORIZADO esperando el corte de liquidación.`,
    scheduled: 'El corte programado las liquida cuando cumplen el plazo configurado; el corte manual las liquida todas ahora.',
  },
  en: {
    title: 'Settlement',
    awaiting: (count: number) =>
      count === 1
        ? '1 AUTORIZADO transaction is waiting for the settlement cut-off.'
        : `${count} AUTORIZADO transactions are waiting for the settlement cut-off.`,
    scheduled:
      'The scheduled cut-off settles them once they reach the configured delay; the manual cut-off settles all of them now.',
  },
};

type Props = { awaiting: number; merchantCode?: string; canEdit: boolean; lang: ConsoleLang };

/** What awaits settlement (everywhere, or at one merchant) and, for platform admins, the cut-off now. */
export function SettlementSection({ awaiting, merchantCode, canEdit, lang }: Props) {
  const text = TEXT[lang];
  return (
    <Section id="settlement" title={text.title}>
      <p className="text-sm" data-testid="awaiting-settlement">
        {text.awaiting(awaiting)}
      </p>
      <p className="text-sm text-slate-600">{text.scheduled}</p>
      {canEdit ? <SettleNow awaiting={awaiting} merchantCode={merchantCode} /> : null}
    </Section>
  );
}
