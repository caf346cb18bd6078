import { useFormatter, useTranslations } from 'next-intl';
import Link from 'next/link';
import { businessTime, money, zoneName } from '../../../console-ui/format';
import { StateBadge } from '../../../console-ui/states';
import type { HistoryEntry, operationDetail } from '@/server/modules/console/operation-detail';

// What the operation page says of one transaction's money: its figures, and every movement with
// its time (operation-detail.ts decides both; this only words them).

type Transaction = Awaited<ReturnType<typeof operationDetail>>['transactions'][number];
type MoneyFacts = Transaction['money'];

/** The one figure beside the operation's number, with what it is. */
export function Headline({ transaction }: { transaction: Transaction }) {
  const t = useTranslations('operations.detail.page.headline');
  const format = useFormatter();
  const { money: amounts, currency, state } = transaction;
  const approved = state === 'AUTORIZADO' || state === 'LIQUIDADO';
  const [label, cents] =
    approved && amounts.captured === null
      ? [t('uncaptured'), amounts.authorized]
      : approved && amounts.captured !== null && amounts.captured !== amounts.authorized
        ? [t('captured', { authorized: money(format, amounts.authorized, currency) }), amounts.captured]
        : approved && amounts.refunded !== '0' && amounts.refunded === (amounts.captured ?? amounts.authorized)
          ? [t('refunded'), amounts.refunded]
          : [t('amount'), transaction.amount];
  return (
    <p className="ml-auto text-right" data-testid="headline">
      <span className="block text-xs text-slate-600">{label}</span>
      <span className="text-xl font-semibold">{money(format, cents, currency)}</span>
    </p>
  );
}

/** What was authorized, captured, refunded and is being refunded of one transaction, and what can still be refunded. */
export function MoneySummary({ money: amounts, currency }: { money: MoneyFacts; currency: string }) {
  const t = useTranslations('operations.detail.page.money');
  const format = useFormatter();
  const rows: [string, string, string][] = [
    ['authorized', t('authorized'), money(format, amounts.authorized, currency)],
    ['captured', t('captured'), amounts.captured === null ? t('notCaptured') : money(format, amounts.captured, currency)],
    ['refunded', t('refunded'), money(format, amounts.refunded, currency)],
    ...(amounts.refundInProcess === '0'
      ? []
      : [['in-process', t('refundInProcess'), money(format, amounts.refundInProcess, currency)] as [string, string, string]]),
    ['refundable', t('refundable'), money(format, amounts.refundable, currency)],
  ];
  return (
    <dl aria-label={t('label')} className="grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-5" data-testid="money">
      {rows.map(([key, label, value]) => (
        <div key={key} className="flex flex-col" data-testid={`money-${key}`}>
          <dt className="text-slate-600">{label}</dt>
          <dd className="font-medium">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Every step and money movement of one transaction at its time in the business time zone (UTC on hover). */
export function History({
  entries,
  amount,
  currency,
  zone,
}: {
  entries: HistoryEntry[];
  amount: string;
  currency: string;
  zone: string;
}) {
  const t = useTranslations('operations.detail.page');
  const format = useFormatter();
  const words = (entry: HistoryEntry) => {
    const moved = entry.amount === null ? '' : money(format, entry.amount, currency);
    if (entry.kind === 'CAPTURED') {
      const released = BigInt(amount) - BigInt(entry.amount ?? amount);
      return t('step.CAPTURED', {
        amount: moved,
        released: released > 0n ? money(format, released.toString(), currency) : 'none',
      });
    }
    return t(`step.${entry.kind}`, { amount: moved });
  };
  return (
    <div className="space-y-1">
      <p className="text-xs text-slate-600">{t('historyHint', { zone: zoneName(zone) })}</p>
      <ol className="relative ml-2 border-l border-slate-300" aria-label={t('lifecycle')}>
        {entries.map((entry, index) => (
          <li key={index} className="mb-2 ml-4 text-sm" data-testid="history-entry" data-kind={entry.kind}>
            <span className="absolute -left-1.5 mt-1.5 h-3 w-3 rounded-full border border-white bg-slate-400" aria-hidden />
            <time dateTime={entry.at} title={`${entry.at} UTC`} className="mr-2 text-slate-700 tabular-nums">
              {businessTime(format, entry.at)}
            </time>
            <span className="font-medium">{words(entry)}</span>{' '}
            {entry.kind === 'CAPTURED' ? null : entry.refundId === null ? (
              <StateBadge state={entry.kind} apiValue />
            ) : (
              <Link href={`/refunds/${entry.refundId}`} className="text-blue-800 underline">
                <StateBadge state={entry.kind.slice('REFUND_'.length)} />
              </Link>
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}
