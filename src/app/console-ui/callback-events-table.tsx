import { useFormatter, useTranslations } from 'next-intl';
import Link from 'next/link';
import { DELIVERY_STATUSES, type DeliveryStatus, type DeliveryView, type DeliveryWait } from '@/server/modules/events/deliveries';
import { deliveryFailureOf } from '@/server/core/domain/delivery-failures';
import { businessTime, zoneName } from './format';
import { ResendEvent } from './resend-event';
import { DataTable } from './table';

const STATUS_STYLE: Record<string, string> = {
  DELIVERED: 'bg-emerald-100 text-emerald-900',
  PENDING: 'bg-amber-100 text-amber-900',
  FAILED: 'bg-red-100 text-red-900',
};

export type CallbackEventRow = DeliveryView & {
  merchantCode?: string;
  operationNumber?: string | null;
  transactionId?: string | null;
};

function isDeliveryStatus(status: string): status is DeliveryStatus {
  return (DELIVERY_STATUSES as readonly string[]).includes(status);
}

/** A failure the service recorded, in the visitor's language (delivery-failures.ts); its stored text on hover. */
function useFailureWords(): (text: string) => string {
  const t = useTranslations('ui.callbackEventsTable');
  return (text) => {
    const failure = deliveryFailureOf(text);
    return t(`failure.${failure.kind}`, failure.values);
  };
}

function DeliveryFailureText({ text }: { text: string }) {
  const words = useFailureWords();
  return (
    <span title={text} data-testid="delivery-failure">
      {words(text)}
    </span>
  );
}

/**
 * An event's name in the visitor's language, and the API's name under it (what the merchant's
 * code receives), cut only at its dots.
 */
function EventName({ type }: { type: string }) {
  const t = useTranslations('ui.callbackEventsTable');
  // Any event's key: next-intl types only the catalogue's, and an event it does not name has none.
  type Key = 'eventNames.transaction.registered';
  return (
    <>
      {t.has(`eventNames.${type}` as Key) ? <span className="block">{t(`eventNames.${type}` as Key)}</span> : null}
      <code className="font-mono text-xs text-slate-600">
        {type.split('.').map((part, index) => (
          <span key={index} className="whitespace-nowrap">
            {index > 0 ? '.' : ''}
            {part}
            {index > 0 ? null : <wbr />}
          </span>
        ))}
      </code>
    </>
  );
}

/** Why a pending delivery waits, in the visitor's language. */
function WaitReason({ wait }: { wait: DeliveryWait }) {
  const t = useTranslations('ui.callbackEventsTable');
  const failureWords = useFailureWords();
  const format = useFormatter();
  const text =
    wait.reason === 'destination_held'
      ? t('wait.destination_held', {
          until: businessTime(format, wait.until),
          failures: wait.failures,
          failure: wait.lastFailure === null ? '—' : failureWords(wait.lastFailure),
        })
      : wait.reason === 'retry_scheduled'
        ? t('wait.retry_scheduled', { at: businessTime(format, wait.at) })
        : t(`wait.${wait.reason}`);
  return (
    <span className="block text-xs text-slate-700" data-testid="delivery-wait">
      {text}
    </span>
  );
}

/** Deliveries of events (to an operation's callback_url and to webhook endpoints) with every attempt: on an operation's page and in the delivery log. */
export function CallbackEventsTable({
  events,
  zone,
  canResend,
  log = false,
  showMerchant = false,
}: {
  events: CallbackEventRow[];
  zone: string;
  canResend: boolean;
  /** The delivery log: creation time and operation columns. */
  log?: boolean;
  showMerchant?: boolean;
}) {
  const t = useTranslations('ui.callbackEventsTable');
  const format = useFormatter();
  const columns = [
    ...(log ? [t('created', { zone: zoneName(zone) })] : []),
    ...(showMerchant ? [t('merchant')] : []),
    t('event'),
    ...(log ? [t('operation')] : []),
    t('host'),
    t('status'),
    t('attempts'),
    ...(canResend ? [t('actions')] : []),
  ];
  return (
    <DataTable caption={t('caption')} columns={columns} headerClass="font-medium">
      {events.map((event) => (
        <tr
          key={`${event.kind}-${event.id}`}
          className="border-t border-slate-100 align-top"
          data-testid="callback-event"
          data-kind={event.kind}
        >
          {log ? (
            <td className="px-3 py-2 whitespace-nowrap" title={event.createdAt}>
              {businessTime(format, event.createdAt)}
            </td>
          ) : null}
          {showMerchant ? <td className="px-3 py-2">{event.merchantCode}</td> : null}
          <td className="px-3 py-2">
            <EventName type={event.type} />
          </td>
          {log ? (
            <td className="px-3 py-2 font-mono whitespace-nowrap">
              {event.transactionId && event.operationNumber ? (
                <Link href={`/operations/${event.transactionId}`} className="text-blue-800 underline">
                  {event.operationNumber}
                </Link>
              ) : (
                '—'
              )}
            </td>
          ) : null}
          <td className="px-3 py-2" title={event.url}>
            <span className="block text-xs text-slate-600">{t(`kinds.${event.kind}`)}</span>
            <span className="font-mono whitespace-nowrap">{event.host}</span>
          </td>
          <td className="px-3 py-2">
            <span
              className={`inline-block rounded px-2 py-0.5 text-xs font-semibold ${STATUS_STYLE[event.status] ?? 'bg-slate-100'}`}
              data-status={event.status}
            >
              {isDeliveryStatus(event.status) ? t(`statuses.${event.status}`) : event.status}
            </span>
            {event.wait ? <WaitReason wait={event.wait} /> : null}
            {event.status === 'FAILED' && event.lastError ? (
              <span className="block text-xs text-red-800">
                <DeliveryFailureText text={event.lastError} />
              </span>
            ) : null}
          </td>
          <td className="px-3 py-2">
            {event.attemptLog.length === 0 ? (
              <span className="text-slate-600">{t('none')}</span>
            ) : (
              <ol className="space-y-0.5" data-testid="callback-attempts">
                {event.attemptLog.map((delivery) => (
                  <li key={delivery.number} className="whitespace-nowrap" title={`${delivery.startedAt} UTC`}>
                    #{delivery.number} · {delivery.statusCode ?? t('noAnswer')} · {delivery.latencyMs} ms
                    {delivery.manual ? (
                      <span className="ml-1 rounded bg-sky-100 px-1 text-xs text-sky-900">{t('manual')}</span>
                    ) : null}
                    {delivery.error ? (
                      <span className="ml-1 whitespace-normal text-red-800">
                        <DeliveryFailureText text={delivery.error} />
                      </span>
                    ) : null}
                  </li>
                ))}
              </ol>
            )}
          </td>
          {canResend ? (
            <td className="px-3 py-2">
              {/* A resend goes to the operation's callback_url; an endpoint's delivery is retried on its schedule. */}
              {event.kind === 'callback' ? <ResendEvent eventId={event.eventId} type={event.type} /> : null}
            </td>
          ) : null}
        </tr>
      ))}
    </DataTable>
  );
}
