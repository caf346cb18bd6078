import { businessTime } from '../../console-ui/format';
import type { ConsoleLang } from '../../console-ui/i18n';
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
};

const TEXT = {
  es: {
    heading: 'Endpoints de webhooks',
    hint: 'Los eventos de las operaciones sin callback_url se envían a cada endpoint activo suscrito a su tipo, firmados como los callbacks.',
    failed: 'No se pudieron cargar los endpoints de webhooks.',
    empty: 'Este comercio aún no tiene endpoints de webhooks.',
    url: 'URL',
    description: 'Descripción',
    types: 'Eventos',
    state: 'Estado',
    pending: 'Entregas pendientes',
    actions: 'Acciones',
    every: 'Todos los eventos',
    active: 'Activo',
    failingSince: (at: string) => `Fallando desde ${at}`,
    disabled: 'Desactivado',
    disabledAt: (at: string) => `el ${at}`,
    byUser: 'por un usuario',
    everyFailed: (since: string, days: string) =>
      `todas las entregas fallaron desde ${since} (${days} ${days === '1' ? 'día' : 'días'})`,
    noticeTitle: 'El sistema desactivó endpoints que fallaban',
    noticeItem: (url: string, why: string) => `${url}: ${why}.`,
    noticeResume:
      'No reciben eventos mientras estén desactivados. Corrige el endpoint y actívalo de nuevo para reanudar las entregas.',
    viewOnly: 'Solo los administradores pueden agregar o cambiar endpoints.',
  },
  en: {
    heading: 'Webhook endpoints',
    hint: 'Events of operations without a callback_url go to every enabled endpoint subscribed to their type, signed as callbacks are.',
    failed: 'The webhook endpoints could not be loaded.',
    empty: 'This merchant has no webhook endpoints yet.',
    url: 'URL',
    description: 'Description',
    types: 'Events',
    state: 'State',
    pending: 'Pending deliveries',
    actions: 'Actions',
    every: 'Every event',
    active: 'Active',
    failingSince: (at: string) => `Failing since ${at}`,
    disabled: 'Disabled',
    disabledAt: (at: string) => `on ${at}`,
    byUser: 'by a user',
    everyFailed: (since: string, days: string) =>
      `every delivery failed since ${since} (${days} ${days === '1' ? 'day' : 'days'})`,
    noticeTitle: 'The system disabled failing endpoints',
    noticeItem: (url: string, why: string) => `${url}: ${why}.`,
    noticeResume: 'They get no events while disabled. Fix the endpoint and enable it again to resume deliveries.',
    viewOnly: 'Only administrators can add or change endpoints.',
  },
};

/** The worker's reason for disabling a failing endpoint (webhook-endpoints.ts, disableFailingEndpoints). */
const SYSTEM_REASON = /^every delivery failed since (\S+) \(([\d.]+) days?\)$/;

/** Disabled by the system after failing for days (not by a user). */
export function disabledBySystem(endpoint: WebhookEndpointRow): boolean {
  return !endpoint.enabled && (endpoint.disabledReason ?? '').startsWith('every delivery failed');
}

/** Why an endpoint is disabled, in the visitor's language (the service's text when it is another reason). */
function reasonText(reason: string | null, lang: ConsoleLang, zone: string): string | null {
  const text = TEXT[lang];
  if (!reason) return null;
  if (reason === 'disabled by a user') return text.byUser;
  const system = SYSTEM_REASON.exec(reason);
  if (system && !Number.isNaN(Date.parse(system[1]!))) return text.everyFailed(businessTime(system[1]!, lang, zone), system[2]!);
  return reason;
}

type Props = {
  endpoints: WebhookEndpointRow[] | null;
  lang: ConsoleLang;
  zone: string;
  canAct: boolean;
  merchantCode?: string;
};

export function WebhookEndpoints({ endpoints, lang, zone, canAct, merchantCode }: Props) {
  const text = TEXT[lang];
  const stopped = endpoints?.filter(disabledBySystem) ?? [];
  return (
    <section aria-labelledby="webhook-endpoints" className="space-y-3" data-testid="webhook-endpoints">
      <h2 id="webhook-endpoints" className="text-lg font-semibold">
        {text.heading}
      </h2>
      {stopped.length > 0 ? (
        <div
          role="status"
          className="space-y-1 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
          data-testid="webhook-disabled-notice"
        >
          <p className="font-semibold">{text.noticeTitle}</p>
          <ul className="list-disc pl-5">
            {stopped.map((endpoint) => (
              <li key={endpoint.id} className="break-words">
                {text.noticeItem(endpoint.url, reasonText(endpoint.disabledReason, lang, zone) ?? '')}
              </li>
            ))}
          </ul>
          <p>{text.noticeResume}</p>
        </div>
      ) : null}
      <p className="text-sm text-slate-600">{text.hint}</p>
      {endpoints === null ? (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-red-800">
          {text.failed}
        </p>
      ) : endpoints.length === 0 ? (
        <EmptyState text={text.empty} />
      ) : (
        <DataTable
          testId="webhook-endpoints-table"
          columns={[
            { label: text.url, wrap: true },
            { label: text.description, wrap: true },
            { label: text.types, wrap: true },
            { label: text.state, wrap: true },
            { label: text.pending, wrap: true, right: true },
            ...(canAct ? [{ label: text.actions, wrap: true } as const] : []),
          ]}
        >
          {endpoints.map((endpoint) => {
            const reason = reasonText(endpoint.disabledReason, lang, zone);
            return (
              <tr key={endpoint.id} className="border-t border-slate-100" data-testid="webhook-endpoint">
                <td className={`${CELL} max-w-xs min-w-48 font-mono text-xs break-all`}>{endpoint.url}</td>
                <td className={`${CELL} break-words`}>{endpoint.description}</td>
                <td className={CELL}>
                  {endpoint.eventTypes.includes('*') ? (
                    text.every
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
                      <span className="rounded bg-slate-200 px-1.5 py-0.5 font-medium text-slate-900">{text.disabled}</span>
                      {endpoint.disabledAt || reason ? (
                        <span className="mt-1 block text-xs text-slate-700">
                          {[endpoint.disabledAt ? text.disabledAt(businessTime(endpoint.disabledAt, lang, zone)) : '', reason]
                            .filter(Boolean)
                            .join(', ')}
                        </span>
                      ) : null}
                    </>
                  ) : endpoint.failingSince ? (
                    <span className="rounded bg-red-100 px-1.5 py-0.5 font-medium text-red-900">
                      {text.failingSince(businessTime(endpoint.failingSince, lang, zone))}
                    </span>
                  ) : (
                    <span className="rounded bg-emerald-100 px-1.5 py-0.5 font-medium text-emerald-900">{text.active}</span>
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
      {canAct ? <CreateWebhookEndpoint merchantCode={merchantCode} /> : <p className="text-sm text-slate-600">{text.viewOnly}</p>}
    </section>
  );
}
