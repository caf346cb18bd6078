import type { Metadata } from 'next';
import Link from 'next/link';
import { consoleCaller, requireConsoleSession } from '@/server/api/console-caller';
import { can } from '@/server/modules/access/policy';
import { consoleLang } from '../../console-ui/lang-server';
import { CELL, DataTable, EmptyState } from '../../console-ui/table';
import { ConnectorApprovalChart } from './connector-approval-chart';
import { ConnectorControls } from './connector-controls';

const TEXT = {
  es: {
    meta: 'Procesadores — consola de pagos',
    title: 'Procesadores',
    intro: 'Cada conector con los medios que lleva, su modo y su disyuntor, y la salud del tráfico que puedes ver.',
    accounts: 'Cuentas propias del comercio en Culqi o Mercado Pago',
    connectors: 'Conectores',
    columns: ['Conector', 'Medios', 'Modo', 'Habilitado', 'Disyuntor (esta instancia)'],
    yes: 'sí',
    no: 'no',
    breaker: { closed: 'cerrado', half_open: 'semiabierto', open: 'abierto' },
    health: 'Salud',
    windows: { hour: 'última hora', day: 'último día', week: 'última semana' },
    healthColumns: [
      'Conector',
      'Medio',
      'Marca',
      'Intentos',
      'Aprobación 1er intento',
      'Aprobación por pago',
      'Fallas técnicas',
      'Latencia p50 / p95',
      'Códigos de rechazo',
    ],
    noTraffic: 'Sin intentos en este periodo.',
    chart: 'Tasa de aprobación por conector',
  },
  en: {
    meta: 'Processors — payments console',
    title: 'Processors',
    intro: 'Each connector with the methods it carries, its mode and breaker, and the health of the traffic you may see.',
    accounts: "The merchant's own Culqi or Mercado Pago accounts",
    connectors: 'Connectors',
    columns: ['Connector', 'Methods', 'Mode', 'Enabled', 'Breaker (this instance)'],
    yes: 'yes',
    no: 'no',
    breaker: { closed: 'closed', half_open: 'half-open', open: 'open' },
    health: 'Health',
    windows: { hour: 'last hour', day: 'last day', week: 'last week' },
    healthColumns: [
      'Connector',
      'Method',
      'Brand',
      'Attempts',
      'First-attempt approval',
      'Approval per payment',
      'Technical failures',
      'Latency p50 / p95',
      'Decline codes',
    ],
    noTraffic: 'No attempts in this period.',
    chart: 'Approval rate per connector',
  },
};

const WINDOWS = ['hour', 'day', 'week'] as const;
type Window = (typeof WINDOWS)[number];

export async function generateMetadata(): Promise<Metadata> {
  return { title: TEXT[await consoleLang()].meta };
}

const percent = (part: number, whole: number) => (whole === 0 ? '—' : `${((100 * part) / whole).toFixed(1)} %`);

export default async function ProcessorsPage({ searchParams }: { searchParams: Promise<{ window?: string }> }) {
  const [session, lang, params] = await Promise.all([requireConsoleSession(), consoleLang(), searchParams]);
  const text = TEXT[lang];
  const window: Window = WINDOWS.includes(params.window as Window) ? (params.window as Window) : 'day';
  const caller = await consoleCaller(session);
  const [connectors, health] = await Promise.all([
    caller.console.processors.connectors(),
    caller.console.processors.health({ window }),
  ]);
  const canEdit = can(session.role, 'platform:act');
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">{text.title}</h1>
        <p className="text-slate-600">{text.intro}</p>
        <p className="text-sm">
          <Link className="text-blue-800 underline" href="/processors/accounts">
            {text.accounts}
          </Link>
        </p>
      </div>

      <section aria-labelledby="connectors" className="space-y-2">
        <h2 id="connectors" className="text-lg font-semibold">
          {text.connectors}
        </h2>
        <DataTable columns={text.columns} testId="connectors">
          {connectors.map((connector) => (
            <tr key={connector.id} className="border-t border-slate-100" data-testid={`connector-${connector.id}`}>
              <td className={CELL}>
                <span className="font-mono">{connector.id}</span>
                <span className="block text-xs text-slate-600">{connector.name}</span>
              </td>
              <td className={CELL}>{connector.methods.join(', ')}</td>
              <td className={CELL}>
                {canEdit ? (
                  <ConnectorControls connector={connector.id} mode={connector.mode} enabled={connector.enabled} />
                ) : (
                  connector.mode
                )}
              </td>
              <td className={CELL}>{connector.enabled ? text.yes : text.no}</td>
              <td className={CELL} data-testid="breaker">
                {text.breaker[connector.breaker]}
              </td>
            </tr>
          ))}
        </DataTable>
      </section>

      <section aria-labelledby="health" className="space-y-2">
        <div className="flex flex-wrap items-center gap-3">
          <h2 id="health" className="text-lg font-semibold">
            {text.health}
          </h2>
          <nav className="flex gap-2 text-sm" aria-label={text.health}>
            {WINDOWS.map((each) => (
              <Link
                key={each}
                href={`/processors?window=${each}`}
                aria-current={each === window ? 'page' : undefined}
                className={`rounded px-2 py-1 ${each === window ? 'bg-slate-800 text-white' : 'hover:bg-slate-100'}`}
              >
                {text.windows[each]}
              </Link>
            ))}
          </nav>
        </div>
        {health.stats.length === 0 ? (
          <EmptyState text={text.noTraffic} />
        ) : (
          <>
            <ConnectorApprovalChart points={health.series} bucket={window === 'week' ? 'day' : 'hour'} title={text.chart} />
            <DataTable columns={text.healthColumns} testId="health">
              {health.stats.map((row) => (
                <tr key={`${row.connector}|${row.method}|${row.brand}`} className="border-t border-slate-100">
                  <td className={`${CELL} font-mono`}>{row.connector}</td>
                  <td className={CELL}>{row.method}</td>
                  <td className={CELL}>{row.brand ?? '—'}</td>
                  <td className={`${CELL} text-right`}>{row.attempts}</td>
                  <td className={`${CELL} text-right`}>{percent(row.firstApproved, row.firstAttempts)}</td>
                  <td className={`${CELL} text-right`}>{percent(row.approvedPayments, row.payments)}</td>
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
