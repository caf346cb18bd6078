import { getTranslations } from 'next-intl/server';
import type { Metadata } from 'next';
import type { Messages } from 'next-intl';
import Link from 'next/link';
import { consoleCaller, requireConsoleSession } from '@/server/api/console-caller';
import { can } from '@/server/modules/access/policy';
import { MethodName } from '../../console-ui/states';
import { CELL, DataTable, EmptyState } from '../../console-ui/table';
import { ConnectorApprovalChart } from './connector-approval-chart';
import { ConnectorControls, ConnectorMode } from './connector-controls';

type DescribedConnector = keyof Messages['processors']['page']['connectorNames'];

const WINDOWS = ['hour', 'day', 'week'] as const;
type Window = (typeof WINDOWS)[number];

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('processors.page'))('meta') };
}

/** A share in percent, "—" of nothing: the approval rates are of decided payments, so a method whose payments are all pending shows "—". */
const percent = (part: number, whole: number) => (whole === 0 ? '—' : `${((100 * part) / whole).toFixed(1)} %`);

export default async function ProcessorsPage({ searchParams }: { searchParams: Promise<{ window?: string }> }) {
  const [session, params] = await Promise.all([requireConsoleSession(), searchParams]);
  const t = await getTranslations('processors.page');
  const window: Window = WINDOWS.includes(params.window as Window) ? (params.window as Window) : 'day';
  const caller = await consoleCaller(session);
  const [connectors, health] = await Promise.all([
    caller.console.processors.connectors(),
    caller.console.processors.health({ window }),
  ]);
  const canEdit = can(session.role, 'platform:act');
  // The service's own test connectors are described in the catalogue, in the console's language;
  // a processor's connector keeps the name it has everywhere.
  const describedConnector = (id: string): id is DescribedConnector => t.has(`connectorNames.${id as DescribedConnector}`);
  const connectorName = (connector: { id: string; name: string }) =>
    describedConnector(connector.id) ? t(`connectorNames.${connector.id}`) : connector.name;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        <p className="text-slate-600">{t('intro')}</p>
        <p className="text-sm">
          <Link className="text-blue-800 underline" href="/processors/accounts">
            {t('accounts')}
          </Link>
        </p>
      </div>

      <section aria-labelledby="connectors" className="space-y-2">
        <h2 id="connectors" className="text-lg font-semibold">
          {t('connectors')}
        </h2>
        <DataTable
          caption={t('connectors')}
          columns={[
            t('columns.connector'),
            t('columns.methods'),
            t('columns.mode'),
            t('columns.enabled'),
            t('columns.breaker'),
            t('columns.calls'),
          ]}
          testId="connectors"
        >
          {connectors.map((connector) => (
            <tr key={connector.id} className="border-t border-slate-100" data-testid={`connector-${connector.id}`}>
              <td className={CELL}>
                <span className="font-mono">{connector.id}</span>
                <span className="block text-xs text-slate-600">{connectorName(connector)}</span>
              </td>
              <td className={CELL}>
                {connector.methods.map((method, index) => (
                  <span key={method}>
                    {index > 0 ? ', ' : ''}
                    <MethodName method={method} />
                  </span>
                ))}
              </td>
              <td className={CELL}>
                {canEdit ? (
                  <ConnectorControls connector={connector.id} mode={connector.mode} enabled={connector.enabled} />
                ) : (
                  <ConnectorMode mode={connector.mode} />
                )}
              </td>
              <td className={CELL}>{connector.enabled ? t('yes') : t('no')}</td>
              <td className={CELL} data-testid="breaker">
                {t(`breaker.${connector.breaker}`)}
              </td>
              <td className={CELL} data-testid="calls">
                {t('calls.inFlight', { inFlight: connector.calls.inFlight, limit: connector.calls.limit })}
                {connector.calls.refused > 0 ? (
                  <span className="block text-xs text-slate-600">{t('calls.refused', { count: connector.calls.refused })}</span>
                ) : null}
              </td>
            </tr>
          ))}
        </DataTable>
      </section>

      <section aria-labelledby="health" className="space-y-2">
        <div className="flex flex-wrap items-center gap-3">
          <h2 id="health" className="text-lg font-semibold">
            {t('health')}
          </h2>
          <nav className="flex gap-2 text-sm" aria-label={t('health')}>
            {WINDOWS.map((each) => (
              <Link
                key={each}
                href={`/processors?window=${each}`}
                aria-current={each === window ? 'page' : undefined}
                className={`rounded px-2 py-1 ${each === window ? 'bg-slate-800 text-white' : 'hover:bg-slate-100'}`}
              >
                {t(`windows.${each}`)}
              </Link>
            ))}
          </nav>
        </div>
        {health.stats.length === 0 ? (
          <EmptyState text={t('noTraffic')} />
        ) : (
          <>
            <p className="text-sm text-slate-600">{t('decidedHint')}</p>
            <ConnectorApprovalChart
              points={health.series}
              bucket={window === 'week' ? 'day' : 'hour'}
              title={t('chart')}
              names={Object.fromEntries(connectors.map((connector) => [connector.id, connectorName(connector)]))}
            />
            <DataTable
              caption={t('health')}
              columns={[
                t('healthColumns.connector'),
                t('healthColumns.method'),
                t('healthColumns.brand'),
                { label: t('healthColumns.attempts'), right: true, wrap: true },
                { label: t('healthColumns.firstApproval'), right: true, wrap: true },
                { label: t('healthColumns.paymentApproval'), right: true, wrap: true },
                { label: t('healthColumns.pending'), right: true, wrap: true },
                { label: t('healthColumns.technicalFailures'), right: true, wrap: true },
                { label: t('healthColumns.latency'), right: true, wrap: true },
                t('healthColumns.declineCodes'),
              ]}
              testId="health"
            >
              {health.stats.map((row) => (
                <tr key={`${row.connector}|${row.method}|${row.brand}`} className="border-t border-slate-100">
                  <td className={`${CELL} font-mono whitespace-nowrap`}>{row.connector}</td>
                  <td className={CELL}>
                    <MethodName method={row.method} apiValue />
                  </td>
                  <td className={CELL}>{row.brand ?? '—'}</td>
                  <td className={`${CELL} text-right`}>{row.attempts}</td>
                  <td className={`${CELL} text-right`}>{percent(row.firstApproved, row.firstDecided)}</td>
                  <td className={`${CELL} text-right`}>{percent(row.approvedPayments, row.decidedPayments)}</td>
                  <td className={`${CELL} text-right`}>{row.pendingPayments}</td>
                  <td className={`${CELL} text-right`}>{percent(row.technicalFailures, row.attempts)}</td>
                  <td className={`${CELL} text-right whitespace-nowrap`}>
                    {row.latencyP50Ms ?? '—'} / {row.latencyP95Ms ?? '—'} ms
                  </td>
                  <td className={CELL}>
                    {row.declineCodes
                      .slice(0, 5)
                      .map((code) => `${code.code} × ${code.count}`)
                      .join(', ') || '—'}
                  </td>
                </tr>
              ))}
            </DataTable>
          </>
        )}
      </section>
    </div>
  );
}
