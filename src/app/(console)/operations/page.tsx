import type { Metadata } from 'next';
import Link from 'next/link';
import { Suspense } from 'react';
import { consoleCaller, requireConsoleSession } from '@/server/console-session-server';
import { endOfDayExclusive, startOfDay } from '@/server/domain/business-day';
import { isAppError } from '@/server/domain/errors';
import { BUSINESS_TIME_ZONE, limaTime, money, StateBadge } from '../../console-ui/format';
import { OperationFilters } from './filters';

export const metadata: Metadata = { title: 'Operaciones — consola de pagos' };

type Props = { searchParams: Promise<Record<string, string | undefined>> };

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const SORTS = new Set(['newest', 'oldest', 'amount_desc', 'amount_asc']);

/** "150", "150.5" or "150.50" soles as cents; anything else is ignored. */
function cents(value: string | undefined): string | undefined {
  const match = /^(\d{1,10})(?:[.,](\d{1,2}))?$/.exec(value?.trim() ?? '');
  return match ? `${BigInt(match[1]!) * 100n + BigInt((match[2] ?? '').padEnd(2, '0') || '0')}` : undefined;
}

export default async function OperationsPage({ searchParams }: Props) {
  const params = await searchParams;
  const session = await requireConsoleSession();
  const caller = await consoleCaller(session);
  const query = {
    search: params.search || undefined,
    state: (params.state || undefined) as 'PENDIENTE' | undefined,
    method: (params.method || undefined) as 'CARD' | undefined,
    from: params.from && DAY.test(params.from) ? startOfDay(params.from, BUSINESS_TIME_ZONE).toISOString() : undefined,
    to: params.to && DAY.test(params.to) ? endOfDayExclusive(params.to, BUSINESS_TIME_ZONE).toISOString() : undefined,
    minAmount: cents(params.min),
    maxAmount: cents(params.max),
    sort: (params.sort && SORTS.has(params.sort) ? params.sort : undefined) as 'newest' | undefined,
    cursor: params.cursor || undefined,
    limit: 25,
  };
  let page: Awaited<ReturnType<typeof caller.console.operations>> | null = null;
  let failure: string | null = null;
  try {
    page = await caller.console.operations(query);
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    failure = isAppError(cause)
      ? 'Los filtros no son válidos. Revísalos e inténtalo de nuevo.'
      : 'No se pudieron cargar las operaciones.';
  }
  const next = new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => Boolean(entry[1])));
  if (page?.nextCursor) next.set('cursor', page.nextCursor);
  const showMerchant = session.role === 'PLATFORM_ADMIN' || session.role === 'SUPPORT';
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Operaciones</h1>
      <Suspense>
        <OperationFilters />
      </Suspense>
      {failure ? (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-red-800">
          {failure}
        </p>
      ) : page && page.rows.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">
          No hay operaciones que coincidan con estos filtros.
        </p>
      ) : page ? (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="min-w-full text-sm">
            <caption className="sr-only">Operaciones, de la más reciente a la más antigua</caption>
            <thead className="bg-slate-50 text-left text-slate-600">
              <tr>
                <th scope="col" className="px-3 py-2">
                  Fecha (Lima)
                </th>
                {showMerchant ? (
                  <th scope="col" className="px-3 py-2">
                    Comercio
                  </th>
                ) : null}
                <th scope="col" className="px-3 py-2">
                  Operación
                </th>
                <th scope="col" className="px-3 py-2">
                  Medio
                </th>
                <th scope="col" className="px-3 py-2">
                  Estado
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  Monto
                </th>
                <th scope="col" className="px-3 py-2">
                  Pagador
                </th>
              </tr>
            </thead>
            <tbody>
              {page.rows.map((row) => (
                <tr key={row.transactionId} className="border-t border-slate-100 hover:bg-slate-50" data-testid="operation-row">
                  <td className="px-3 py-2 whitespace-nowrap" title={row.createdAt}>
                    {limaTime(row.createdAt)}
                  </td>
                  {showMerchant ? <td className="px-3 py-2">{row.merchantCode}</td> : null}
                  <td className="px-3 py-2 font-mono">
                    <Link href={`/operations/${row.transactionId}`} className="text-blue-800 underline">
                      {row.merchantOperationNumber}
                    </Link>
                  </td>
                  <td className="px-3 py-2">
                    {row.method}
                    {row.maskedPan ? <span className="ml-1 font-mono text-slate-500">{row.maskedPan}</span> : null}
                  </td>
                  <td className="px-3 py-2">
                    <StateBadge state={row.state} />
                  </td>
                  <td className="px-3 py-2 text-right whitespace-nowrap">{money(row.amount, row.currency)}</td>
                  <td className="px-3 py-2">{row.payerEmail ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {page?.nextCursor ? (
        <Link
          href={`/operations?${next.toString()}`}
          className="inline-block rounded-md border border-slate-300 bg-white px-4 py-1.5 text-sm"
        >
          Siguiente página
        </Link>
      ) : null}
    </div>
  );
}
