import { useFormatter, useTranslations } from 'next-intl';
import { businessTime } from './format';
import { DataTable } from './table';

export type CallbackEvent = {
  id: string;
  type: string;
  status: string;
  deliveries: {
    number: number;
    startedAt: string;
    latencyMs: number;
    statusCode: number | null;
    error: string | null;
    manual: boolean;
  }[];
};

/** The callback events of a transaction or refund, each with every delivery attempt (SKIPPED ones are not sent). */
export function CallbackEvents({ events }: { events: CallbackEvent[] }) {
  const t = useTranslations('ui.callbackEvents');
  const format = useFormatter();
  const sent = events.filter((event) => event.status !== 'SKIPPED');
  if (sent.length === 0) return <p className="text-sm text-slate-600">{t('none')}</p>;
  return (
    <DataTable caption={t('caption')} columns={[t('event'), t('state'), t('attempts')]}>
      {sent.map((event) => (
        <tr key={event.id} className="border-t border-slate-100 align-top" data-testid="callback-event">
          <td className="px-3 py-2 font-mono">{event.type}</td>
          <td className="px-3 py-2">{event.status}</td>
          <td className="px-3 py-2">
            {event.deliveries.length === 0 ? (
              <span className="text-slate-600">{t('noAttempts')}</span>
            ) : (
              <ol className="space-y-1">
                {event.deliveries.map((delivery) => (
                  <li key={delivery.number} className="break-words">
                    #{delivery.number} · {businessTime(format, delivery.startedAt)} · {delivery.statusCode ?? '—'} ·{' '}
                    {delivery.latencyMs} ms{delivery.error ? ` · ${delivery.error}` : ''}
                    {delivery.manual ? ` · ${t('manual')}` : ''}
                  </li>
                ))}
              </ol>
            )}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
