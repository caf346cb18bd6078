import type { Metadata } from 'next';
import Link from 'next/link';
import { Suspense } from 'react';
import { consoleCaller, requireConsoleSession } from '@/server/console-session-server';
import { limaTime, money, StateBadge } from '../../console-ui/format';
import { UrlFilters } from '../../console-ui/url-filters';

export const metadata: Metadata = { title: 'Reembolsos — consola de pagos' };

type Props = { searchParams: Promise<Record<string, string | undefined>> };

const STATES = ['REGISTERED', 'IN_PROCESS', 'RESOLVED', 'REJECTED'];
const KEYS = [
  'start_date',
  'end_date',
  'merchant_code',
  'merchant_operation_number',
  'transaction_id',
  'state',
  'cursor',
] as const;

export default async function RefundsPage({ searchParams }: Props) {
  const params = await searchParams;
  const session = await requireConsoleSession();
  const caller = await consoleCaller(session);
  const platform = session.role === 'PLATFORM_ADMIN' || session.role === 'SUPPORT';
  const filters = Object.fromEntries(KEYS.filter((key) => params[key]).map((key) => [key, params[key]!]));
  let page: Awaited<ReturnType<typeof caller.console.refunds>> | null = null;
  try {
    page = await caller.console.refunds({ ...filters, limit: '25' });
  } catch {
    page = null;
  }
  const next = new URLSearchParams(filters);
  if (page?.next_cursor) next.set('cursor', page.next_cursor);
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Reembolsos</h1>
      <Suspense>
        <UrlFilters
          label="Filtrar reembolsos"
          fields={[
            { name: 'start_date', label: 'Desde', kind: 'date' },
            { name: 'end_date', label: 'Hasta', kind: 'date' },
            ...(platform ? [{ name: 'merchant_code', label: 'Comercio', kind: 'text' as const }] : []),
            { name: 'merchant_operation_number', label: 'N.º de operación', kind: 'text' },
            { name: 'transaction_id', label: 'Id de transacción', kind: 'text', wide: true },
            {
              name: 'state',
              label: 'Estado',
              kind: 'select',
              options: [{ value: '', label: 'Todos' }, ...STATES.map((value) => ({ value, label: value }))],
            },
          ]}
        />
      </Suspense>
      {page === null ? (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-red-800">
          Los filtros no son válidos: las fechas van como AAAA-MM-DD y el id de transacción es un UUID.
        </p>
      ) : page.operations.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">
          No hay reembolsos que coincidan.
        </p>
      ) : (
        <>
          <p className="text-sm text-slate-600" data-testid="refund-count">
            {page.operations_count} reembolsos
          </p>
          <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
            <table className="min-w-full text-sm">
              <thead className="bg-slate-50 text-left text-slate-600">
                <tr>
                  <th scope="col" className="px-3 py-2">
                    Registrado (Lima)
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Operación
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Estado
                  </th>
                  <th scope="col" className="px-3 py-2 text-right">
                    Monto
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Medio
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Motivo
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Ciclo de vida
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.operations.map((refund) => (
                  <tr key={refund.refund_id} className="border-t border-slate-100 align-top" data-testid="refund-row">
                    <td className="px-3 py-2 whitespace-nowrap">{limaTime(`${refund.lifecycle[0]!.date.utc_time}Z`)}</td>
                    <td className="px-3 py-2 font-mono">
                      <Link className="text-blue-800 underline" href={`/operations/${refund.transaction_id}`}>
                        {refund.merchant_operation_number}
                      </Link>
                    </td>
                    <td className="px-3 py-2">
                      <StateBadge state={refund.state} />
                    </td>
                    <td className="px-3 py-2 text-right whitespace-nowrap">{money(refund.refund_amount, refund.currency)}</td>
                    <td className="px-3 py-2">
                      {refund.payment_method.name}{' '}
                      <span className="font-mono text-slate-500">{refund.payment_method.masked_pan}</span>
                    </td>
                    <td className="px-3 py-2">{refund.additional_fields.reason}</td>
                    <td className="px-3 py-2">
                      {refund.lifecycle.map((entry) => (
                        <div key={entry.state}>
                          {entry.state} · {limaTime(`${entry.date.utc_time}Z`)}
                        </div>
                      ))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {page?.next_cursor ? (
        <Link
          href={`/refunds?${next.toString()}`}
          className="inline-block rounded-md border border-slate-300 bg-white px-4 py-1.5 text-sm"
        >
          Siguiente página
        </Link>
      ) : null}
    </div>
  );
}
