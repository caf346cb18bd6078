import type { Metadata } from 'next';
import { Suspense } from 'react';
import { consoleCaller, requireConsoleSession } from '@/server/api/console-caller';
import { toAppError } from '@/server/api/errors/to-app-error';
import { BackLink } from '../../../console-ui/back-link';
import { consoleLang } from '../../../console-ui/lang-server';
import { UrlFilters } from '../../../console-ui/url-filters';
import { RefundBatchForm } from './refund-batch-form';
import { can } from '@/server/modules/access/policy';

const TEXT = {
  es: {
    meta: 'Nuevo reembolso — consola de pagos',
    back: '← Reembolsos',
    title: 'Nuevo reembolso',
    intro:
      'Reembolsos totales de transacciones liquidadas, varias a la vez, con las mismas reglas que POST /refund: hasta 50 por solicitud, y se registran todos o ninguno.',
    readOnly:
      'Tu rol es de solo lectura: puedes consultar los reembolsos, pero no solicitarlos. Pide a un administrador del comercio que lo haga.',
    find: 'Buscar transacciones',
    merchant: 'Código de comercio',
    search: 'Buscar',
    searchHint: 'N.º de operación, id, últimos 4, correo',
    chooseMerchant: 'Elige primero el comercio para el que solicitas los reembolsos.',
    noMerchant: (code: string) => `No existe el comercio ${code}.`,
    actingFor: (name: string, code: string) => `Comercio: ${name} (${code})`,
  },
  en: {
    meta: 'New refund — payments console',
    back: '← Refunds',
    title: 'New refund',
    intro:
      'Total refunds of settled transactions, several at once, with the rules of POST /refund: up to 50 per request, and all are registered or none.',
    readOnly: 'Your role is read-only: you can look up refunds but not request them. Ask a merchant administrator to do it.',
    find: 'Find transactions',
    merchant: 'Merchant code',
    search: 'Search',
    searchHint: 'Operation number, id, last 4, email',
    chooseMerchant: 'First choose the merchant you are requesting refunds for.',
    noMerchant: (code: string) => `There is no merchant ${code}.`,
    actingFor: (name: string, code: string) => `Merchant: ${name} (${code})`,
  },
};

export async function generateMetadata(): Promise<Metadata> {
  return { title: TEXT[await consoleLang()].meta };
}

type Props = { searchParams: Promise<{ merchant?: string; q?: string }> };

export default async function NewRefundPage({ searchParams }: Props) {
  const params = await searchParams;
  const [session, lang] = await Promise.all([requireConsoleSession(), consoleLang()]);
  const text = TEXT[lang];
  const platform = can(session.role, 'merchants:all');
  const chosen = platform ? params.merchant?.trim() || undefined : undefined;
  const caller = await consoleCaller(session);
  const list =
    can(session.role, 'merchant:act') && (!platform || chosen)
      ? await caller.console
          .refundableTransactions({ merchantCode: chosen, search: params.q?.trim() || undefined })
          .catch((error: unknown) => {
            if (toAppError(error).kind === 'NOT_FOUND') return null;
            throw error;
          })
      : undefined;
  return (
    <div className="space-y-6">
      <BackLink href="/refunds">{text.back}</BackLink>
      <h1 className="text-2xl font-semibold">{text.title}</h1>
      {!can(session.role, 'merchant:act') ? (
        <p className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950" data-testid="read-only">
          {text.readOnly}
        </p>
      ) : (
        <>
          <p className="text-slate-700">{text.intro}</p>
          <Suspense>
            <UrlFilters
              label={text.find}
              fields={[
                ...(platform ? [{ name: 'merchant', label: text.merchant, kind: 'text' as const }] : []),
                { name: 'q', label: text.search, kind: 'text', wide: true, placeholder: text.searchHint },
              ]}
            />
          </Suspense>
          {list === undefined ? (
            <p className="text-slate-700">{text.chooseMerchant}</p>
          ) : list === null ? (
            <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-red-800">
              {text.noMerchant(chosen ?? '')}
            </p>
          ) : (
            <>
              {platform ? (
                <p className="font-medium" data-testid="acting-for">
                  {text.actingFor(list.merchant.name, list.merchant.code)}
                </p>
              ) : null}
              <RefundBatchForm
                key={list.merchant.code}
                merchantCode={platform ? list.merchant.code : undefined}
                candidates={list.rows}
                more={list.more}
              />
            </>
          )}
        </>
      )}
    </div>
  );
}
