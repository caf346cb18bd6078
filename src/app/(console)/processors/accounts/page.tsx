import type { Metadata } from 'next';
import Link from 'next/link';
import { Suspense } from 'react';
import { can } from '@/server/modules/access/policy';
import { consoleCaller, requireConsoleSession } from '@/server/api/console-caller';
import { businessTime } from '../../../console-ui/format';
import { consoleLang } from '../../../console-ui/lang-server';
import { CELL, DataTable, EmptyState } from '../../../console-ui/table';
import { UrlFilters } from '../../../console-ui/url-filters';
import { businessZone } from '../../../console-ui/zone-server';
import { AccountActions } from './account-actions';
import { AccountSettings } from './account-settings';
import { ConnectAccount } from './connect-account';

// A merchant's own processor accounts (docs/processors/README.md): what is connected, whether the
// processor took its keys, where the processor's notifications go, and (for admins) connecting,
// testing, pausing and removing. Secrets are never shown: only their hints.

const TEXT = {
  es: {
    meta: 'Cuentas de procesador — consola de pagos',
    title: 'Cuentas de procesador',
    intro:
      'Conecta las cuentas que el comercio tiene con Culqi o Mercado Pago. Cada cuenta es un conector: nómbrala en una regla de Enrutamiento para enviarle pagos.',
    back: 'Volver a Procesadores',
    chooseLabel: 'Elegir comercio',
    merchantCode: 'Código de comercio',
    choose: 'Elige un comercio para ver sus cuentas.',
    noMerchant: 'No existe ese comercio.',
    empty: 'Este comercio aún no conectó ninguna cuenta.',
    columns: ['Cuenta', 'Procesador', 'Medios', 'Llaves', 'Notificaciones', 'Prueba de conexión', 'Estado'],
    actions: 'Acciones',
    live: 'producción',
    test: 'pruebas',
    user: 'usuario',
    never: 'sin probar',
    ok: 'Aceptada',
    failed: 'Rechazada',
    enabled: 'Activa',
    disabled: 'Pausada',
    viewOnly: 'Solo los administradores pueden conectar o cambiar cuentas.',
  },
  en: {
    meta: 'Processor accounts — payments console',
    title: 'Processor accounts',
    intro:
      "Connect the merchant's own Culqi or Mercado Pago accounts. Each account is a connector: name it in a Routing rule to send it payments.",
    back: 'Back to Processors',
    chooseLabel: 'Choose a merchant',
    merchantCode: 'Merchant code',
    choose: 'Choose a merchant to see its accounts.',
    noMerchant: 'There is no such merchant.',
    empty: 'This merchant has not connected any account yet.',
    columns: ['Account', 'Processor', 'Methods', 'Keys', 'Notifications', 'Connection test', 'State'],
    actions: 'Actions',
    live: 'live',
    test: 'test',
    user: 'user',
    never: 'not tested',
    ok: 'Accepted',
    failed: 'Refused',
    enabled: 'Active',
    disabled: 'Paused',
    viewOnly: 'Only administrators can connect or change accounts.',
  },
};

export async function generateMetadata(): Promise<Metadata> {
  return { title: TEXT[await consoleLang()].meta };
}

type Props = { searchParams: Promise<{ merchant?: string }> };

export default async function ProcessorAccountsPage({ searchParams }: Props) {
  const [session, lang, params] = await Promise.all([requireConsoleSession(), consoleLang(), searchParams]);
  const text = TEXT[lang];
  const zone = businessZone();
  const platform = can(session.role, 'merchants:all');
  const canAct = can(session.role, 'merchant:act');
  const chosen = platform ? params.merchant?.trim() || undefined : undefined;
  const caller = await consoleCaller(session);
  const listed =
    !platform || chosen ? await caller.console.processorAccounts.accounts({ merchantCode: chosen }).catch(() => null) : null;
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <p className="text-sm">
          <Link className="text-blue-800 underline" href="/processors">
            {text.back}
          </Link>
        </p>
        <h1 className="text-2xl font-semibold">{text.title}</h1>
        <p className="text-slate-600">{text.intro}</p>
      </div>
      {platform ? (
        <Suspense>
          <UrlFilters label={text.chooseLabel} fields={[{ name: 'merchant', label: text.merchantCode, kind: 'text' }]} />
        </Suspense>
      ) : null}
      {listed === null ? (
        <p className="text-slate-600">{platform && !chosen ? text.choose : text.noMerchant}</p>
      ) : (
        <>
          {listed.accounts.length === 0 ? (
            <EmptyState text={text.empty} />
          ) : (
            <DataTable columns={[...text.columns, ...(canAct ? [text.actions] : [])]} testId="processor-accounts">
              {listed.accounts.map((account) => (
                <tr
                  key={account.id}
                  className="border-t border-slate-100 align-top"
                  data-testid={`account-${account.connectorId}`}
                >
                  <td className={CELL}>
                    <span className="font-semibold">{account.name}</span>
                    <span className="block font-mono text-xs text-slate-600">{account.connectorId}</span>
                  </td>
                  <td className={CELL}>
                    {account.processorName}
                    <span className="block text-xs text-slate-600">{account.environment === 'live' ? text.live : text.test}</span>
                  </td>
                  <td className={CELL}>{account.methods.join(', ')}</td>
                  <td className={`${CELL} font-mono text-xs break-all`}>
                    <span className="block">{account.publicKey}</span>
                    <span className="block" data-testid="secret-hint">
                      {account.secretHint}
                    </span>
                  </td>
                  <td className={`${CELL} text-xs break-all`}>
                    <span className="block font-mono" data-testid="notification-url">
                      {account.notificationUrl}
                    </span>
                    {account.webhookUsername ? (
                      <span className="block">
                        {text.user}: <span className="font-mono">{account.webhookUsername}</span>
                      </span>
                    ) : null}
                  </td>
                  <td className={CELL} data-testid="check">
                    {account.checkedAt === null ? (
                      text.never
                    ) : (
                      <>
                        <span className={account.checkOk ? 'text-emerald-800' : 'text-red-800'}>
                          {account.checkOk ? text.ok : text.failed}
                        </span>
                        <span className="block text-xs text-slate-600">{account.checkMessage}</span>
                        <span className="block text-xs text-slate-600">{businessTime(account.checkedAt, lang, zone)}</span>
                      </>
                    )}
                  </td>
                  <td className={CELL} data-testid="state">
                    {account.enabled ? text.enabled : text.disabled}
                  </td>
                  {canAct ? (
                    <td className={`${CELL} space-y-2`}>
                      <AccountActions account={account} />
                      <AccountSettings
                        account={account}
                        carried={listed.processors.find((each) => each.id === account.processor)?.methods ?? account.methods}
                      />
                    </td>
                  ) : null}
                </tr>
              ))}
            </DataTable>
          )}
          {canAct ? (
            <ConnectAccount merchantCode={chosen} processors={listed.processors} />
          ) : (
            <p className="text-sm text-slate-600">{text.viewOnly}</p>
          )}
        </>
      )}
    </div>
  );
}
