import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { consoleCaller, requireConsoleSession } from '@/server/api/console-caller';
import { isAppError } from '@/server/core/domain/errors';
import type { TransactionState } from '@/server/core/domain/states';
import { CallbackEventsTable } from '../../../console-ui/callback-events-table';
import { businessTime, money, StateBadge } from '../../../console-ui/format';
import { consoleLang } from '../../../console-ui/lang-server';
import { businessZone } from '../../../console-ui/zone-server';
import { CancelAction, CaptureAction, RefundAction } from './operation-actions';
import { can } from '@/server/modules/access/policy';
import type { operationDetail } from '@/server/modules/console/operation-detail';

const TEXT = {
  es: {
    title: 'Operación — consola de pagos',
    back: '← Operaciones',
    actions: 'Acciones',
    readOnly: 'Tu rol es de solo lectura.',
    cannotCancel: (why: string) => `No se puede cancelar ni extornar: ${why}.`,
    why: {
      already: (state: string) => `ya está ${state}`,
      DENEGADO: 'la operación fue denegada (DENEGADO), no hay nada que cancelar',
      EXPIRADO: 'la operación expiró (EXPIRADO), no hay nada que cancelar',
      LIQUIDADO: (refundable: boolean) =>
        refundable
          ? 'ya está liquidada (LIQUIDADO); solicita un reembolso'
          : 'ya está liquidada (LIQUIDADO) y este medio no admite reembolsos',
      AUTORIZADO: (refundable: boolean) =>
        refundable
          ? 'el dinero del pagador ya se movió; solicita un reembolso cuando se liquide'
          : 'el dinero del pagador ya se movió y este medio no admite reembolsos',
    },
    transaction: (id: string) => `Transacción ${id}`,
    lifecycle: 'Ciclo de vida',
    payerName: 'pagador',
    payerEmail: 'correo del pagador',
    processor: 'Respuesta del procesador',
    attempt: (n: number) => `Intento ${n}`,
    rule: (version: number | null) => (version === null ? 'ruta por defecto de la plataforma' : `regla v${version}`),
    declineClass: 'clase de rechazo',
    latency: (ms: number) => `${ms} ms`,
    threeDs: '3-D Secure',
    image: '(imagen)',
    refunds: 'Reembolsos',
    money: {
      label: 'Montos',
      authorized: 'Autorizado',
      captured: 'Capturado',
      notCaptured: 'sin capturar',
      refunded: 'Reembolsado',
      refundable: 'Por reembolsar',
    },
    callbacks: 'Notificaciones (callbacks)',
    noCallbacks: 'La operación no tiene callback_url: no se envían notificaciones.',
  },
  en: {
    title: 'Operation — payments console',
    back: '← Operations',
    actions: 'Actions',
    readOnly: 'Your role is read-only.',
    cannotCancel: (why: string) => `It cannot be cancelled or reversed: ${why}.`,
    why: {
      already: (state: string) => `it is already ${state}`,
      DENEGADO: 'the operation was declined (DENEGADO), there is nothing to cancel',
      EXPIRADO: 'the operation expired (EXPIRADO), there is nothing to cancel',
      LIQUIDADO: (refundable: boolean) =>
        refundable
          ? 'it is already settled (LIQUIDADO); request a refund instead'
          : 'it is already settled (LIQUIDADO) and this method takes no refunds',
      AUTORIZADO: (refundable: boolean) =>
        refundable
          ? "the payer's money has moved; request a refund once it is settled"
          : "the payer's money has moved and this method takes no refunds",
    },
    transaction: (id: string) => `Transaction ${id}`,
    lifecycle: 'Lifecycle',
    payerName: 'payer',
    payerEmail: 'payer email',
    processor: 'Processor response',
    attempt: (n: number) => `Attempt ${n}`,
    rule: (version: number | null) => (version === null ? "platform's default routes" : `rule v${version}`),
    declineClass: 'decline class',
    latency: (ms: number) => `${ms} ms`,
    threeDs: '3-D Secure',
    image: '(image)',
    refunds: 'Refunds',
    money: {
      label: 'Amounts',
      authorized: 'Authorized',
      captured: 'Captured',
      notCaptured: 'not captured',
      refunded: 'Refunded',
      refundable: 'Still refundable',
    },
    callbacks: 'Notifications (callbacks)',
    noCallbacks: 'The operation has no callback_url: no notifications are sent.',
  },
};

type Why = {
  already: (state: string) => string;
  DENEGADO: string;
  EXPIRADO: string;
  LIQUIDADO: (refundable: boolean) => string;
  AUTORIZADO: (refundable: boolean) => string;
};

/** Why the operation cannot be cancelled or reversed, in the page's language. */
function refusalReason(why: Why, state: TransactionState, refundableMethod: boolean): string {
  switch (state) {
    case 'CANCELADO':
    case 'EXTORNADO':
      return why.already(state);
    case 'DENEGADO':
    case 'EXPIRADO':
      return why[state];
    case 'LIQUIDADO':
    case 'AUTORIZADO':
      return why[state](refundableMethod);
    default:
      return state;
  }
}

export async function generateMetadata(): Promise<Metadata> {
  return { title: TEXT[await consoleLang()].title };
}

type Props = { params: Promise<{ transactionId: string }> };

export default async function OperationPage({ params }: Props) {
  const { transactionId } = await params;
  const [session, lang] = await Promise.all([requireConsoleSession(), consoleLang()]);
  const text = TEXT[lang];
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
  const callbacks = detail.events.filter((event) => event.callbackUrl !== null);
  return (
    <div className="space-y-6">
      <p>
        <Link href="/operations" className="text-sm text-blue-800 underline">
          {text.back}
        </Link>
      </p>
      <header className="flex flex-wrap items-center gap-3">
        <h1 className="font-mono text-2xl font-semibold break-all">{detail.merchantOperationNumber}</h1>
        <StateBadge state={detail.state} />
        <span className="text-slate-600">
          {detail.merchant.name} ({detail.merchant.code})
        </span>
        <span className="ml-auto text-xl font-semibold">{money(latest.amount, latest.currency)}</span>
      </header>

      <section aria-labelledby="actions" className="space-y-2">
        <h2 id="actions" className="text-lg font-semibold">
          {text.actions}
        </h2>
        {!canAct ? (
          <p className="text-sm text-slate-600">{text.readOnly}</p>
        ) : detail.cancel.allowed ? (
          <CancelAction transactionId={latest.transaction_id} to={detail.cancel.to} />
        ) : (
          <p className="text-sm text-slate-600">
            {text.cannotCancel(refusalReason(text.why, detail.cancel.state, detail.cancel.refundableMethod))}
          </p>
        )}
        {canAct
          ? detail.transactions
              .filter((transaction) => transaction.capturable)
              .map((transaction) => (
                <CaptureAction
                  key={transaction.transaction_id}
                  transactionId={transaction.transaction_id}
                  authorized={transaction.amount}
                  currency={transaction.currency}
                  before={businessTime(transaction.additional_fields!.capture!.capture_before.utc_time, lang, zone)}
                />
              ))
          : null}
        {canAct
          ? detail.transactions
              .filter((transaction) => transaction.refundable)
              .map((transaction) => (
                <RefundAction
                  key={transaction.transaction_id}
                  transactionId={transaction.transaction_id}
                  refundable={transaction.money.refundable}
                  currency={transaction.currency}
                  whole={transaction.money.refunded === '0'}
                />
              ))
          : null}
      </section>

      {detail.transactions.map((transaction) => (
        <section
          key={transaction.transaction_id}
          aria-label={text.transaction(transaction.transaction_id)}
          className="space-y-3 rounded-lg border border-slate-200 bg-white p-4"
        >
          <div className="flex flex-wrap items-center gap-3">
            <h2 className="font-semibold">{transaction.payment_method.method_name}</h2>
            <StateBadge state={transaction.state} />
            <span className="font-mono text-xs break-all text-slate-500">{transaction.transaction_id}</span>
          </div>
          {transaction.state_reason ? <p className="text-sm text-slate-700">{transaction.state_reason}</p> : null}
          <Orchestration facts={transaction.orchestration} text={text} />
          <MoneySummary money={transaction.money} currency={transaction.currency} text={text.money} />
          <ol className="relative ml-2 border-l border-slate-300" aria-label={text.lifecycle}>
            {transaction.lifecycle.map((entry, index) => (
              <li key={index} className="mb-2 ml-4">
                <span className="absolute -left-1.5 mt-1.5 h-3 w-3 rounded-full border border-white bg-slate-400" aria-hidden />
                <StateBadge state={entry.state} />{' '}
                <time dateTime={entry.date.utc_time} title={`${entry.date.utc_time} UTC`} className="text-sm text-slate-700">
                  {businessTime(entry.date.utc_time, lang, zone)}
                </time>
              </li>
            ))}
          </ol>
          <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
            {Object.entries(transaction.payment_method.method_details ?? {}).map(([key, value]) =>
              typeof value === 'object' ? null : (
                <div key={key} className="flex gap-2">
                  <dt className="text-slate-500">{key}</dt>
                  <dd className="font-mono break-all">{String(value)}</dd>
                </div>
              ),
            )}
            {transaction.payer_name ? (
              <div className="flex gap-2">
                <dt className="text-slate-500">{text.payerName}</dt>
                <dd className="break-all" data-testid="payer-name">
                  {transaction.payer_name}
                </dd>
              </div>
            ) : null}
            {transaction.payer_email ? (
              <div className="flex gap-2">
                <dt className="text-slate-500">{text.payerEmail}</dt>
                <dd className="break-all">{transaction.payer_email}</dd>
              </div>
            ) : null}
          </dl>
          {transaction.processor_response ? (
            <details>
              <summary className="cursor-pointer text-sm font-medium">{text.processor}</summary>
              <pre className="mt-2 overflow-x-auto rounded bg-slate-50 p-2 text-xs">
                {JSON.stringify(
                  {
                    ...transaction.processor_response,
                    qr_image: transaction.processor_response.qr_image ? text.image : undefined,
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
            {text.refunds}
          </h2>
          <ul className="space-y-1 text-sm">
            {detail.refunds.map((refund) => (
              <li key={refund.refund_id} className="flex flex-wrap items-center gap-2" data-testid="refund">
                <StateBadge state={refund.state} /> {money(refund.refund_amount, refund.currency)} ·{' '}
                <span className="break-all">{refund.additional_fields.reason}</span>
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
          {text.callbacks}
        </h2>
        {callbacks.length === 0 ? (
          <p className="text-sm text-slate-600">{text.noCallbacks}</p>
        ) : (
          <CallbackEventsTable events={callbacks} lang={lang} zone={zone} canResend={canAct} />
        )}
      </section>
    </div>
  );
}

type OrchestrationFacts = Awaited<ReturnType<typeof operationDetail>>['transactions'][number]['orchestration'];

/** One attempt's routing: its number, processor, the rule and route that chose it, and how it ended. */
type OrchestrationText = Pick<(typeof TEXT)['es'], 'attempt' | 'rule' | 'declineClass' | 'latency' | 'threeDs'>;

function Orchestration({ facts, text }: { facts: OrchestrationFacts; text: OrchestrationText }) {
  if (!facts.connector) return null;
  const parts = [
    text.attempt(facts.attempt),
    facts.connector,
    facts.routing
      ? `${text.rule(facts.routing.rule_version)}${facts.routing.route === null ? '' : ` #${facts.routing.route + 1}`}`
      : null,
    facts.declineClass ? `${text.declineClass}: ${facts.declineClass}` : null,
    facts.latencyMs === null ? null : text.latency(facts.latencyMs),
    facts.threeDs
      ? `${text.threeDs}: ${facts.threeDs.status} (ECI ${facts.threeDs.eci}${facts.threeDs.challenged ? ', challenge' : ''})`
      : null,
  ].filter(Boolean);
  return (
    <p className="text-sm text-slate-700" data-testid="attempt-routing" title={facts.routing?.reason}>
      {parts.join(' · ')}
    </p>
  );
}

type MoneyFacts = Awaited<ReturnType<typeof operationDetail>>['transactions'][number]['money'];

/** What was authorized, captured and refunded of one transaction, and what can still be refunded. */
function MoneySummary({
  money: amounts,
  currency,
  text,
}: {
  money: MoneyFacts;
  currency: string;
  text: (typeof TEXT)['es']['money'];
}) {
  const rows: [string, string, string][] = [
    ['authorized', text.authorized, money(amounts.authorized, currency)],
    ['captured', text.captured, amounts.captured === null ? text.notCaptured : money(amounts.captured, currency)],
    ['refunded', text.refunded, money(amounts.refunded, currency)],
    ['refundable', text.refundable, money(amounts.refundable, currency)],
  ];
  return (
    <dl aria-label={text.label} className="grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-4" data-testid="money">
      {rows.map(([key, label, value]) => (
        <div key={key} className="flex flex-col" data-testid={`money-${key}`}>
          <dt className="text-slate-500">{label}</dt>
          <dd className="font-medium">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
