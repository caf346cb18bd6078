'use client';

import { useFormatter, useTranslations } from 'next-intl';
import { SECONDARY_BUTTON } from '../../../console-ui/buttons';
import { money } from '../../../console-ui/format';
import { MethodName } from '../../../console-ui/states';
import { itemLabel, type BatchItem, type Fields } from './batch-text';
import { ReasonFields } from './reason-fields';

/** The transactions in the request, each removable and each with an optional reason of its own. */
export function BatchItems({
  items,
  common,
  onChange,
  onRemove,
}: {
  items: BatchItem[];
  common: Fields;
  onChange: (transactionId: string, change: Partial<Pick<BatchItem, 'own' | 'amount'>>) => void;
  onRemove: (transactionId: string) => void;
}) {
  const t = useTranslations('refunds.new.batch');
  const format = useFormatter();
  return (
    <section aria-labelledby="items" className="space-y-2">
      <h2 id="items" className="text-lg font-semibold">
        {t('items', { count: items.length })}
      </h2>
      {items.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-4 text-center text-slate-600">{t('noItems')}</p>
      ) : (
        <ol className="space-y-2">
          {items.map((item, index) => (
            <li key={item.transactionId} data-testid="batch-item" data-transaction-id={item.transactionId}>
              <fieldset className="space-y-2 rounded-lg border border-slate-200 bg-white p-3">
                <legend className="px-1 text-sm font-semibold break-all">
                  {t('itemLegend', { index: index + 1, label: itemLabel(item) })}
                </legend>
                <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
                  {item.candidate ? (
                    <span>
                      <MethodName method={item.candidate.method} /> ·{' '}
                      {money(format, item.candidate.amount, item.candidate.currency)}
                    </span>
                  ) : (
                    <span className="text-slate-600">{t('pasted')}</span>
                  )}
                  <label className="flex items-center gap-1">
                    <input
                      type="checkbox"
                      className="h-4 w-4"
                      checked={item.own !== null}
                      onChange={(event) => onChange(item.transactionId, { own: event.target.checked ? { ...common } : null })}
                    />
                    {t('ownReason')}
                  </label>
                  <button
                    type="button"
                    onClick={() => onRemove(item.transactionId)}
                    aria-label={`${t('remove')} ${itemLabel(item)}`}
                    className={`ml-auto ${SECONDARY_BUTTON}`}
                  >
                    {t('remove')}
                  </button>
                </div>
                <label className="block max-w-xs text-sm">
                  {t('partAmount', { label: itemLabel(item) })}
                  <input
                    value={item.amount}
                    inputMode="decimal"
                    onChange={(event) => onChange(item.transactionId, { amount: event.target.value })}
                    className="mt-1 block w-40 rounded-md border border-slate-300 bg-white px-2 py-1.5"
                  />
                </label>
                {item.own ? <ReasonFields value={item.own} onChange={(own) => onChange(item.transactionId, { own })} /> : null}
              </fieldset>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
