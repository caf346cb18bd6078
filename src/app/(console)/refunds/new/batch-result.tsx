'use client';

import { useFormatter, useTranslations } from 'next-intl';
import Link from 'next/link';
import { useEffect, useRef } from 'react';
import { DANGER_OUTLINE_BUTTON } from '../../../console-ui/buttons';
import { money } from '../../../console-ui/format';
import { StateBadge } from '../../../console-ui/states';
import { itemLabel, type BatchItem, type BatchOutcome } from './batch-text';

/** What became of each item of the request sent: its refund, or why it cannot be refunded. */
export function BatchResult({
  outcome,
  sent,
  onRemoveFailed,
}: {
  outcome: BatchOutcome;
  sent: BatchItem[];
  onRemoveFailed: () => void;
}) {
  const t = useTranslations('refunds.new.batch');
  const format = useFormatter();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [outcome]);
  const label = (index: number) => itemLabel(sent[index]!);
  if (outcome.filed) {
    return (
      <section
        role="status"
        aria-labelledby="batch-result"
        className="space-y-2 rounded-lg border border-emerald-300 bg-emerald-50 p-4"
      >
        <h2 id="batch-result" ref={heading} tabIndex={-1} className="text-lg font-semibold text-emerald-900 focus:outline-none">
          {t('filedTitle', { count: outcome.items.length })}
        </h2>
        <ol className="space-y-1 text-sm">
          {outcome.items.map(({ transactionId, refund }, index) => (
            <li
              key={refund.refund_id}
              className="flex flex-wrap items-center gap-2 break-all"
              data-testid="batch-result-item"
              data-transaction-id={transactionId}
            >
              <span className="font-semibold">#{index + 1}</span>
              <span className="font-mono">{label(index)}</span>
              <StateBadge state={refund.state} />
              <span>{money(format, refund.refund_amount, refund.currency)}</span>
              <Link href={`/refunds/${refund.refund_id}`} className="text-blue-800 underline">
                {t('open', { id: refund.refund_id.slice(0, 8) })}
              </Link>
            </li>
          ))}
        </ol>
      </section>
    );
  }
  const failed = outcome.items.filter((item) => item.refusal !== null).length;
  return (
    <section role="alert" aria-labelledby="batch-result" className="space-y-2 rounded-lg border border-red-300 bg-red-50 p-4">
      <h2 id="batch-result" ref={heading} tabIndex={-1} className="text-lg font-semibold text-red-900 focus:outline-none">
        {t('refusedTitle')}
      </h2>
      <p className="text-sm text-red-900">{t('refusedText', { failed, total: outcome.items.length })}</p>
      <ol className="space-y-1 text-sm">
        {outcome.items.map(({ transactionId, refusal }, index) => (
          <li
            key={index}
            className="flex flex-wrap gap-2 break-all"
            data-testid="batch-result-item"
            data-transaction-id={transactionId}
          >
            <span className="font-semibold">#{index + 1}</span>
            <span className="font-mono">{label(index)}</span>
            <span className={refusal ? 'font-medium text-red-800' : 'text-slate-700'}>
              {refusal
                ? t(`refusal.${refusal.reason}`, {
                    detail: refusal.detail ?? (refusal.reason === 'not_settled' ? '—' : ''),
                  })
                : t('valid')}
            </span>
          </li>
        ))}
      </ol>
      <button type="button" onClick={onRemoveFailed} className={DANGER_OUTLINE_BUTTON}>
        {t('removeFailed')}
      </button>
    </section>
  );
}
