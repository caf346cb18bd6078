import { useFormatter, useTranslations } from 'next-intl';
import { businessTime, type ConsoleFormatter } from '../../console-ui/format';
import { CELL, DataTable, EmptyState } from '../../console-ui/table';
import { CreateWebhookEndpoint, WebhookEndpointActions } from './webhook-actions';

// The "Webhook endpoints" section of /developers: a merchant's endpoints with their state and
// backlog, a notice for those the system disabled, and (for admins) the form and row actions.

export type WebhookEndpointRow = {
  id: string;
  url: string;
  description: string;
  eventTypes: string[];
  enabled: boolean;
  failingSince: string | null;
  disabledAt: string | null;
  disabledReason: string | null;
  createdAt: string;
  pending: number;
  /** The active signing secret's hint; null for an endpoint made before endpoints had secrets. */
  secretHint: string | null;
  previousSecretExpiresAt: string | null;
};

/** The worker's reason for disabling a failing endpoint (webhook-endpoints.ts, disableFailingEndpoints). */
const SYSTEM_REASON = /^every delivery failed since (\S+) \(([\d.]+) days?\)$/;

/** Disabled by the system after failing for days (not by a user). */
export function disabledBySystem(endpoint: WebhookEndpointRow): boolean {
  return !endpoint.enabled && (endpoint.disabledReason ?? '').startsWith('every delivery failed');
}

type Translate = ReturnType<typeof useTranslations<'developers.webhookEndpoints'>>;

/** Why an endpoint is disabled, in the visitor's language (the service's text when it is another reason). */
function reasonText(t: Translate, reason: string | null, format: ConsoleFormatter): string | null {
  if (!reason) return null;
  if (reason === 'disabled by a user') return t('byUser');
  const system = SYSTEM_REASON.exec(reason);
  if (system && !Number.isNaN(Date.parse(system[1]!)))
    return t('everyFailed', { since: businessTime(format, system[1]!), days: Number(system[2]!) });
  return reason;
}

type Props = {
  endpoints: WebhookEndpointRow[] | null;
  canAct: boolean;
  merchantCode?: string;
};

export function WebhookEndpoints({ endpoints, canAct, merchantCode }: Props) {
  const t = useTranslations('developers.webhookEndpoints');
  const format = useFormatter();
  const stopped = endpoints?.filter(disabledBySystem) ?? [];
  return (
    <section aria-labelledby="webhook-endpoints" className="space-y-3" data-testid="webhook-endpoints">
      <h2 id="webhook-endpoints" className="text-lg font-semibold">
        {t('heading')}
      </h2>
      {stopped.length > 0 ? (
        <div
          role="status"
          className="space-y-1 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
          data-testid="webhook-disabled-notice"
        >
          <p className="font-semibold">{t('noticeTitle')}</p>
          <ul className="list-disc pl-5">
            {stopped.map((endpoint) => (
              <li key={endpoint.id} className="break-words">
                {t('noticeItem', { url: endpoint.url, why: reasonText(t, endpoint.disabledReason, format) ?? '' })}
              </li>
            ))}
          </ul>
          <p>{t('noticeResume')}</p>
        </div>
      ) : null}
      <p className="text-sm text-slate-600">{t('hint')}</p>
      {endpoints === null ? (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-red-800">
          {t('failed')}
        </p>
      ) : endpoints.length === 0 ? (
        <EmptyState text={t('empty')} />
      ) : (
        <DataTable
          caption={t('heading')}
          testId="webhook-endpoints-table"
          columns={[
            { label: t('url'), wrap: true },
            { label: t('description'), wrap: true },
            { label: t('types'), wrap: true },
            { label: t('state'), wrap: true },
            { label: t('pending'), wrap: true, right: true },
            ...(canAct ? [{ label: t('actions'), wrap: true } as const] : []),
          ]}
        >
          {endpoints.map((endpoint) => {
            const reason = reasonText(t, endpoint.disabledReason, format);
            return (
              <tr key={endpoint.id} className="border-t border-slate-100" data-testid="webhook-endpoint">
                <td className={`${CELL} max-w-xs min-w-48 font-mono text-xs break-all`}>
                  {endpoint.url}
                  <span className="mt-1 block font-sans text-slate-600" data-testid="webhook-secret-hint">
                    {endpoint.secretHint ? t('secretHint', { hint: endpoint.secretHint }) : t('legacySigning')}
                    {endpoint.previousSecretExpiresAt
                      ? ` ${t('previousSecret', { until: businessTime(format, endpoint.previousSecretExpiresAt) })}`
                      : ''}
                  </span>
                </td>
                <td className={`${CELL} break-words`}>{endpoint.description}</td>
                <td className={CELL}>
                  {endpoint.eventTypes.includes('*') ? (
                    t('every')
                  ) : (
                    <ul className="space-y-0.5">
                      {endpoint.eventTypes.map((type) => (
                        <li key={type}>
                          <code className="text-xs">{type}</code>
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
                <td className={CELL} data-testid="webhook-state">
                  {!endpoint.enabled ? (
                    <>
                      <span className="rounded bg-slate-200 px-1.5 py-0.5 font-medium text-slate-900">{t('disabled')}</span>
                      {endpoint.disabledAt || reason ? (
                        <span className="mt-1 block text-xs text-slate-700">
                          {[endpoint.disabledAt ? t('disabledAt', { at: businessTime(format, endpoint.disabledAt) }) : '', reason]
                            .filter(Boolean)
                            .join(', ')}
                        </span>
                      ) : null}
                    </>
                  ) : endpoint.failingSince ? (
                    <span className="rounded bg-red-100 px-1.5 py-0.5 font-medium text-red-900">
                      {t('failingSince', { at: businessTime(format, endpoint.failingSince) })}
                    </span>
                  ) : (
                    <span className="rounded bg-emerald-100 px-1.5 py-0.5 font-medium text-emerald-900">{t('active')}</span>
                  )}
                </td>
                <td className={`${CELL} text-right tabular-nums`} data-testid="webhook-pending">
                  {endpoint.pending}
                </td>
                {canAct ? (
                  <td className={CELL}>
                    <WebhookEndpointActions endpointId={endpoint.id} url={endpoint.url} enabled={endpoint.enabled} />
                  </td>
                ) : null}
              </tr>
            );
          })}
        </DataTable>
      )}
      {canAct ? <CreateWebhookEndpoint merchantCode={merchantCode} /> : <p className="text-sm text-slate-600">{t('viewOnly')}</p>}
    </section>
  );
}
