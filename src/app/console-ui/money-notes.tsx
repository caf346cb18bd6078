import { useFormatter, useTranslations } from 'next-intl';
import type { MoneyView } from '@/server/modules/console/money-view';
import { money } from './format';

/**
 * What became of a payment's amount, under it in a list: captured in part or not yet, refunded,
 * a refund in process. Nothing for a payment whose amount is the whole story.
 */
export function MoneyNotes({ state, figures, currency }: { state: string; figures: MoneyView; currency: string }) {
  const t = useTranslations('ui.moneyNotes');
  const format = useFormatter();
  const approved = state === 'AUTORIZADO' || state === 'LIQUIDADO';
  const notes = [
    approved && figures.captured === null ? t('uncaptured') : null,
    approved && figures.captured !== null && figures.captured !== figures.authorized
      ? t('captured', { amount: money(format, figures.captured, currency) })
      : null,
    figures.refunded === '0' ? null : t('refunded', { amount: money(format, figures.refunded, currency) }),
    figures.refundInProcess === '0' ? null : t('refundInProcess', { amount: money(format, figures.refundInProcess, currency) }),
  ].filter((note) => note !== null);
  if (notes.length === 0) return null;
  return (
    <span className="block text-xs text-slate-600" data-testid="money-notes">
      {notes.map((note) => (
        <span key={note} className="block">
          {note}
        </span>
      ))}
    </span>
  );
}
