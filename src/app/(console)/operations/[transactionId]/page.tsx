import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { consoleCaller, requireConsoleSession } from '@/server/console-session-server';
import { isAppError } from '@/server/domain/errors';
import { limaTime, money, StateBadge } from '../../../console-ui/format';
import { CancelAction, RefundAction } from './operation-actions';

export const metadata: Metadata = { title: 'Operación — consola de pagos' };

type Props = { params: Promise<{ transactionId: string }> };

export default async function OperationPage({ params }: Props) {
  const { transactionId } = await params;
  const session = await requireConsoleSession();
  const caller = await consoleCaller(session);
  let detail: Awaited<ReturnType<typeof caller.console.operation>>;
  try {
    detail = await caller.console.operation({ transactionId });
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    if (isAppError(cause) && cause.kind === 'NOT_FOUND') notFound();
    throw error;
  }
  const canAct = session.role === 'PLATFORM_ADMIN' || session.role === 'MERCHANT_ADMIN';
  const latest = detail.transactions.at(-1)!;
  return (
    <div className="space-y-6">
      <p>
        <Link href="/operations" className="text-sm text-blue-800 underline">
          ← Operaciones
        </Link>
      </p>
      <header className="flex flex-wrap items-center gap-3">
        <h1 className="font-mono text-2xl font-semibold">{detail.merchantOperationNumber}</h1>
        <StateBadge state={detail.state} />
        <span className="text-slate-600">
          {detail.merchant.name} ({detail.merchant.code})
        </span>
        <span className="ml-auto text-xl font-semibold">{money(latest.amount, latest.currency)}</span>
      </header>

      <section aria-labelledby="actions" className="space-y-2">
        <h2 id="actions" className="text-lg font-semibold">
          Acciones
        </h2>
        {!canAct ? (
          <p className="text-sm text-slate-600">Tu rol es de solo lectura.</p>
        ) : detail.cancel.allowed ? (
          <CancelAction transactionId={latest.transaction_id} to={detail.cancel.to} />
        ) : (
          <p className="text-sm text-slate-600">No se puede cancelar ni extornar: {detail.cancel.reason}.</p>
        )}
        {canAct
          ? detail.transactions
              .filter((transaction) => transaction.refundable)
              .map((transaction) => (
                <RefundAction
                  key={transaction.transaction_id}
                  transactionId={transaction.transaction_id}
                  amount={money(transaction.amount, transaction.currency)}
                />
              ))
          : null}
      </section>

      {detail.transactions.map((transaction) => (
        <section
          key={transaction.transaction_id}
          aria-label={`Transacción ${transaction.transaction_id}`}
          className="space-y-3 rounded-lg border border-slate-200 bg-white p-4"
        >
          <div className="flex flex-wrap items-center gap-3">
            <h2 className="font-semibold">{transaction.payment_method.method_name}</h2>
            <StateBadge state={transaction.state} />
            <span className="font-mono text-xs text-slate-500">{transaction.transaction_id}</span>
          </div>
          {transaction.state_reason ? <p className="text-sm text-slate-700">{transaction.state_reason}</p> : null}
          <ol className="relative ml-2 border-l border-slate-300" aria-label="Ciclo de vida">
            {transaction.lifecycle.map((entry, index) => (
              <li key={index} className="mb-2 ml-4">
                <span className="absolute -left-1.5 mt-1.5 h-3 w-3 rounded-full border border-white bg-slate-400" aria-hidden />
                <StateBadge state={entry.state} />{' '}
                <time dateTime={entry.date.utc_time} title={`${entry.date.utc_time} UTC`} className="text-sm text-slate-700">
                  {limaTime(entry.date.utc_time)}
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
            {transaction.payer_email ? (
              <div className="flex gap-2">
                <dt className="text-slate-500">pagador</dt>
                <dd>{transaction.payer_email}</dd>
              </div>
            ) : null}
          </dl>
          {transaction.processor_response ? (
            <details>
              <summary className="cursor-pointer text-sm font-medium">Respuesta del procesador</summary>
              <pre className="mt-2 overflow-x-auto rounded bg-slate-50 p-2 text-xs">
                {JSON.stringify(
                  {
                    ...transaction.processor_response,
                    qr_image: transaction.processor_response.qr_image ? '(imagen)' : undefined,
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
            Reembolsos
          </h2>
          <ul className="space-y-1 text-sm">
            {detail.refunds.map((refund) => (
              <li key={refund.refund_id} className="flex flex-wrap items-center gap-2">
                <StateBadge state={refund.state} /> {money(refund.refund_amount, refund.currency)} ·{' '}
                {refund.additional_fields.reason}
                <Link href={`/refunds/${refund.refund_id}`} className="font-mono text-xs text-blue-800 underline">
                  {refund.refund_id}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="callbacks" className="space-y-2">
        <h2 id="callbacks" className="text-lg font-semibold">
          Notificaciones (callbacks)
        </h2>
        {detail.events.every((event) => event.status === 'SKIPPED') ? (
          <p className="text-sm text-slate-600">La operación no tiene callback_url: no se envían notificaciones.</p>
        ) : (
          <table className="min-w-full text-sm">
            <thead className="text-left text-slate-600">
              <tr>
                <th scope="col" className="py-1 pr-3">
                  Evento
                </th>
                <th scope="col" className="py-1 pr-3">
                  Estado
                </th>
                <th scope="col" className="py-1 pr-3">
                  Intentos
                </th>
              </tr>
            </thead>
            <tbody>
              {detail.events
                .filter((event) => event.status !== 'SKIPPED')
                .map((event) => (
                  <tr key={event.id} className="border-t border-slate-100 align-top">
                    <td className="py-1 pr-3 font-mono">{event.type}</td>
                    <td className="py-1 pr-3">{event.status}</td>
                    <td className="py-1 pr-3">
                      {event.deliveries.map((delivery) => (
                        <div key={delivery.number}>
                          #{delivery.number} {delivery.statusCode ?? '—'} · {delivery.latencyMs} ms
                          {delivery.error ? ` · ${delivery.error}` : ''}
                        </div>
                      ))}
                    </td>
                  </tr>
                ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}
