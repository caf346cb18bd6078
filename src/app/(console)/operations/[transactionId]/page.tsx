import { useTranslations } from 'next-intl';
import { getFormatter, getTranslations } from 'next-intl/server';
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { consoleCaller, requireConsoleSession } from '@/server/api/console-caller';
import { isAppError } from '@/server/core/domain/errors';
import type { TransactionState } from '@/server/core/domain/states';
import { isDeclineClass } from '@/server/core/domain/decline-class';
import { CARD_TYPE_VALUES, type CardType } from '@/server/core/orchestration';

const isCardType = (value: string): value is CardType => (CARD_TYPE_VALUES as readonly string[]).includes(value);
import { CallbackEventsTable } from '../../../console-ui/callback-events-table';
import { businessTime, money, refundInstant } from '../../../console-ui/format';
import { DetailLabel, isDetailField, MethodName, StateBadge, StateReason } from '../../../console-ui/states';
import { CardUse } from '../../../console-ui/card-use';
import { cardUseOf } from '@/server/modules/console/customers';
import type { Prisma } from '@/generated/prisma/client';
import { businessZone } from '../../../console-ui/zone-server';
import { OperationActions } from './operation-actions';
import { Headline, History, MoneySummary } from './money-story';
import { can } from '@/server/modules/access/policy';
import type { operationDetail } from '@/server/modules/console/operation-detail';

type Translate = Awaited<ReturnType<typeof getTranslations<'operations.detail.page'>>>;

/** Why the operation cannot be cancelled or reversed, in the page's language. */
function refusalReason(
  t: Translate,
  state: TransactionState,
  label: string,
  refundableMethod: boolean,
  money: { refundable: string; refunded: string; refundInProcess: string },
): string {
  if (state === 'LIQUIDADO' && refundableMethod && money.refundable === '0')
    return money.refundInProcess === '0' ? t('why.settledRefunded') : t('why.settledInProcess');
  switch (state) {
    case 'CANCELADO':
    case 'EXTORNADO':
      return t('why.already', { state: label });
    case 'DENEGADO':
    case 'EXPIRADO':
      return t(`why.${state}`);
    case 'LIQUIDADO':
    case 'AUTORIZADO':
      return t(`why.${state}`, { refundable: String(refundableMethod) });
    default:
      return state;
  }
}

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('operations.detail.page'))('title') };
}

type Props = { params: Promise<{ transactionId: string }> };

export default async function OperationPage({ params }: Props) {
  const { transactionId } = await params;
  const session = await requireConsoleSession();
  const t = await getTranslations('operations.detail.page');
  const states = await getTranslations('ui.states');
  const routing = await getTranslations('routing');
  const format = await getFormatter();
  const zone = businessZone();
  const caller = await consoleCaller(session);
  let detail: Awaited<ReturnType<typeof caller.console.operation>>;
  try {
    detail = await caller.console.operation({ transactionId });
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    if (isAppError(cause) && cause.kind === 'NOT_FOUND') notFound();
    throw error;
  }
  const canAct = can(session.role, 'merchant:act');
  const latest = detail.transactions.at(-1)!;
  return (
    <div className="space-y-6">
      <p>
        <Link href="/operations" className="text-sm text-blue-800 underline">
          {t('back')}
        </Link>
      </p>
      <header className="flex flex-wrap items-center gap-3">
        <h1 className="font-mono text-2xl font-semibold break-all">{detail.merchantOperationNumber}</h1>
        <StateBadge state={detail.state} apiValue />
        <span className="text-slate-600">
          {detail.merchant.name} ({detail.merchant.code})
        </span>
        <Headline transaction={latest} />
      </header>

      <section aria-labelledby="actions" className="space-y-2">
        <h2 id="actions" className="text-lg font-semibold">
          {t('actions')}
        </h2>
        {!canAct ? (
          <p className="text-sm text-slate-600">{t('readOnly')}</p>
        ) : (
          <OperationActions
            cancel={detail.cancel.allowed ? { transactionId: latest.transaction_id, to: detail.cancel.to } : null}
            cannotCancel={
              detail.cancel.allowed
                ? null
                : t('cannotCancel', {
                    why: refusalReason(
                      t,
                      detail.cancel.state,
                      states(`state.${detail.cancel.state}`),
                      detail.cancel.refundableMethod,
                      latest.money,
                    ),
                  })
            }
            captures={detail.transactions
              .filter((transaction) => transaction.capturable)
              .map((transaction) => ({
                transactionId: transaction.transaction_id,
                authorized: transaction.amount,
                currency: transaction.currency,
                before: businessTime(format, transaction.additional_fields!.capture!.capture_before.utc_time),
              }))}
            refunds={detail.transactions
              .filter((transaction) => transaction.refundable)
              .map((transaction) => ({
                transactionId: transaction.transaction_id,
                refundable: transaction.money.refundable,
                currency: transaction.currency,
                whole: transaction.money.refunded === '0' && transaction.money.refundInProcess === '0',
              }))}
          />
        )}
      </section>

      {detail.transactions.map((transaction) => (
        <section
          key={transaction.transaction_id}
          aria-label={t('transaction', { id: transaction.transaction_id })}
          className="space-y-3 rounded-lg border border-slate-200 bg-white p-4"
        >
          <div className="flex flex-wrap items-center gap-3">
            <h2 className="font-semibold">
              <MethodName method={transaction.payment_method.method_name} />
            </h2>
            <StateBadge state={transaction.state} apiValue />
            {cardUseOf(transaction.additional_fields as Prisma.JsonValue) ? (
              <CardUse use={cardUseOf(transaction.additional_fields as Prisma.JsonValue)!} />
            ) : null}
            <span className="font-mono text-xs break-all text-slate-500">{transaction.transaction_id}</span>
          </div>
          {transaction.state_reason ? (
            <p className="text-sm text-slate-700">
              <StateReason reason={transaction.state_reason} testId="state-reason" />
            </p>
          ) : null}
          <Orchestration facts={transaction.orchestration} />
          <MoneySummary money={transaction.money} currency={transaction.currency} />
          <History entries={transaction.history} amount={transaction.amount} currency={transaction.currency} zone={zone} />
          <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
            {Object.entries(transaction.payment_method.method_details ?? {}).map(([key, value]) =>
              typeof value === 'object' || !isDetailField(key) ? null : (
                <div key={key} className="flex gap-2">
                  <dt className="text-slate-500">
                    <DetailLabel field={key} />
                  </dt>
                  <dd className={key === 'masked_pan' ? 'font-mono whitespace-nowrap' : 'font-mono break-all'}>
                    {key === 'card_type' && isCardType(String(value))
                      ? routing(`cardTypes.${String(value) as CardType}`)
                      : String(value)}
                  </dd>
                </div>
              ),
            )}
            {transaction.payer_name ? (
              <div className="flex gap-2">
                <dt className="text-slate-500">{t('payerName')}</dt>
                <dd className="break-all" data-testid="payer-name">
                  {transaction.payer_name}
                </dd>
              </div>
            ) : null}
            {transaction.payer_email ? (
              <div className="flex gap-2">
                <dt className="text-slate-500">{t('payerEmail')}</dt>
                <dd className="break-all">{transaction.payer_email}</dd>
              </div>
            ) : null}
          </dl>
          {transaction.processor_response ? (
            <details>
              <summary className="cursor-pointer text-sm font-medium">{t('processor')}</summary>
              <pre className="mt-2 overflow-x-auto rounded bg-slate-50 p-2 text-xs">
                {JSON.stringify(
                  {
                    ...transaction.processor_response,
                    qr_image: transaction.processor_response.qr_image ? t('image') : undefined,
                  },
                  null,
                  2,
                )}
              </pre>
            </details>
          ) : null}
        </section>
      ))}

      {detail.refunds.length > 0 ? (
        <section aria-labelledby="refunds" className="space-y-2">
          <h2 id="refunds" className="text-lg font-semibold">
            {t('refunds')}
          </h2>
          <ul className="space-y-1 text-sm">
            {detail.refunds.map((refund) => (
              <li key={refund.refund_id} className="flex flex-wrap items-center gap-2" data-testid="refund">
                <StateBadge state={refund.state} /> {money(format, refund.refund_amount, refund.currency)} ·{' '}
                <span className="text-slate-600">
                  {t('refundFiled', { date: businessTime(format, refundInstant(refund.lifecycle[0]!.date)) })}
                </span>{' '}
                · <span className="break-all">{refund.additional_fields.reason}</span>
                {refund.additional_fields.description ? (
                  <span className="break-all text-slate-600">{refund.additional_fields.description}</span>
                ) : null}
                <Link href={`/refunds/${refund.refund_id}`} className="font-mono text-xs break-all text-blue-800 underline">
                  {refund.refund_id}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="callbacks" className="space-y-2">
        <h2 id="callbacks" className="text-lg font-semibold">
          {t('callbacks')}
        </h2>
        {detail.deliveries.length === 0 ? (
          <p className="text-sm text-slate-600">{t('noCallbacks')}</p>
        ) : (
          <CallbackEventsTable events={detail.deliveries} zone={zone} canResend={canAct} />
        )}
      </section>
    </div>
  );
}

type OrchestrationFacts = Awaited<ReturnType<typeof operationDetail>>['transactions'][number]['orchestration'];

/** One attempt's routing: its number, processor, the rule and route that chose it, and how it ended. */
function Orchestration({ facts }: { facts: OrchestrationFacts }) {
  const t = useTranslations('operations.detail.page');
  const states = useTranslations('ui.states');
  if (!facts.connector) return null;
  const parts = [
    t('attempt', { n: facts.attempt }),
    facts.connector,
    facts.routing
      ? `${t('rule', { version: facts.routing.rule_version === null ? 'none' : String(facts.routing.rule_version) })}${facts.routing.route === null ? '' : ` #${facts.routing.route + 1}`}`
      : null,
    facts.declineClass && isDeclineClass(facts.declineClass)
      ? `${t('declineClass')}: ${states(`declineClass.${facts.declineClass}`)}`
      : null,
    facts.latencyMs === null ? null : t('latency', { ms: facts.latencyMs }),
    facts.threeDs
      ? `${t('threeDs')}: ${facts.threeDs.status} (ECI ${facts.threeDs.eci}${facts.threeDs.challenged ? `, ${t('challenged')}` : ''})`
      : null,
  ].filter(Boolean);
  return (
    <p className="text-sm text-slate-700" data-testid="attempt-routing" title={facts.routing?.reason}>
      {parts.join(' · ')}
    </p>
  );
}
