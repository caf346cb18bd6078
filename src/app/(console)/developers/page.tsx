import type { Metadata } from 'next';
import { Suspense } from 'react';
import { consoleCaller, requireConsoleSession } from '@/server/api/console-caller';
import { CALLBACK_STATUSES, type CallbackStatus } from '@/server/modules/events/callback-events';
import { CallbackEventsTable } from '../../console-ui/callback-events-table';
import { businessTime } from '../../console-ui/format';
import { consoleLang } from '../../console-ui/lang-server';
import { businessZone } from '../../console-ui/zone-server';
import { NextPageLink } from '../../console-ui/next-page-link';
import { DataTable } from '../../console-ui/table';
import { UrlFilters } from '../../console-ui/url-filters';
import { CreateCredential, RevokeCredential } from './credential-actions';
import { WebhookEndpoints } from './webhook-endpoints';
import { can } from '@/server/modules/access/policy';

const TEXT = {
  es: {
    title: 'Desarrolladores — consola de pagos',
    heading: 'Desarrolladores',
    reference: 'Referencia de la API',
    openapi: 'Documento OpenAPI',
    publicKey: 'Descargar la clave pública de los callbacks',
    signature: 'Cada callback lleva la cabecera signature: RSA-SHA512 en base64 sobre el cuerpo exacto.',
    chooseLabel: 'Elegir comercio',
    merchantCode: 'Código de comercio',
    choose: 'Elige un comercio para ver sus credenciales.',
    noMerchant: 'No existe ese comercio.',
    credentials: 'Credenciales de la API',
    noCredentials: 'Este comercio aún no tiene credenciales.',
    name: 'Nombre',
    scopes: 'Scopes',
    lastUse: 'Último uso',
    state: 'Estado',
    never: 'nunca',
    revoked: (at: string) => `Revocada ${at}`,
    active: 'Activa',
    log: 'Registro de entregas de callbacks',
    logHint: 'Notificaciones enviadas al callback_url de cada operación, de la más reciente a la más antigua.',
    logFilter: 'Filtrar entregas',
    status: 'Estado de entrega',
    all: 'Todos',
    logInvalid: 'El filtro de entregas no es válido.',
    logFailed: 'No se pudo cargar el registro de entregas.',
    logEmpty: 'No hay notificaciones que coincidan.',
    next: 'Entregas más antiguas',
  },
  en: {
    title: 'Developers — payments console',
    heading: 'Developers',
    reference: 'API reference',
    openapi: 'OpenAPI document',
    publicKey: 'Download the callbacks public key',
    signature: 'Every callback carries a signature header: base64 RSA-SHA512 over the exact body.',
    chooseLabel: 'Choose a merchant',
    merchantCode: 'Merchant code',
    choose: 'Choose a merchant to see its credentials.',
    noMerchant: 'There is no such merchant.',
    credentials: 'API credentials',
    noCredentials: 'This merchant has no credentials yet.',
    name: 'Name',
    scopes: 'Scopes',
    lastUse: 'Last used',
    state: 'State',
    never: 'never',
    revoked: (at: string) => `Revoked ${at}`,
    active: 'Active',
    log: 'Callback delivery log',
    logHint: "Notifications sent to each operation's callback_url, newest first.",
    logFilter: 'Filter deliveries',
    status: 'Delivery status',
    all: 'All',
    logInvalid: 'The delivery filter is not valid.',
    logFailed: 'The delivery log could not be loaded.',
    logEmpty: 'No notifications match.',
    next: 'Older deliveries',
  },
};

export async function generateMetadata(): Promise<Metadata> {
  return { title: TEXT[await consoleLang()].title };
}

type Props = { searchParams: Promise<{ merchant?: string; status?: string; cursor?: string }> };

export default async function DevelopersPage({ searchParams }: Props) {
  const { merchant, status, cursor } = await searchParams;
  const [session, lang] = await Promise.all([requireConsoleSession(), consoleLang()]);
  const text = TEXT[lang];
  const zone = businessZone();
  const caller = await consoleCaller(session);
  const platform = can(session.role, 'merchants:all');
  const canAct = can(session.role, 'merchant:act');
  const chosen = platform ? merchant?.trim() || undefined : undefined;
  const statusValid = !status || (CALLBACK_STATUSES as readonly string[]).includes(status);
  const [credentials, endpoints, deliveries] = await Promise.all([
    !platform || chosen ? caller.console.credentials({ merchantCode: chosen }).catch(() => null) : null,
    !platform || chosen ? caller.console.webhooks.endpoints({ merchantCode: chosen }).catch(() => null) : null,
    statusValid
      ? caller.console
          .callbackEvents({
            merchantCode: chosen,
            status: (status || undefined) as CallbackStatus | undefined,
            cursor: cursor || undefined,
          })
          .catch(() => null)
      : null,
  ]);
  const older = new URLSearchParams({ ...(chosen ? { merchant: chosen } : {}), ...(status ? { status } : {}) });
  if (deliveries?.nextCursor) older.set('cursor', deliveries.nextCursor);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">{text.heading}</h1>
      <section className="space-y-1 text-sm">
        <p>
          <a className="text-blue-800 underline" href="/docs">
            {text.reference}
          </a>{' '}
          ·{' '}
          <a className="text-blue-800 underline" href="/api/openapi.json">
            {text.openapi}
          </a>{' '}
          ·{' '}
          <a className="text-blue-800 underline" href="/api/webhooks/public-key" download="callbacks-public-key.pem">
            {text.publicKey}
          </a>
        </p>
        <p className="text-slate-600">{text.signature}</p>
      </section>
      {platform ? (
        <Suspense>
          <UrlFilters
            label={text.chooseLabel}
            keep={['status']}
            fields={[{ name: 'merchant', label: text.merchantCode, kind: 'text' }]}
          />
        </Suspense>
      ) : null}
      {credentials === null ? (
        <p className="text-slate-600">{platform && !chosen ? text.choose : text.noMerchant}</p>
      ) : (
        <section aria-labelledby="credentials" className="space-y-3">
          <h2 id="credentials" className="text-lg font-semibold">
            {text.credentials}
          </h2>
          {credentials.length === 0 ? (
            <p className="text-slate-600">{text.noCredentials}</p>
          ) : (
            <DataTable
              columns={[
                { label: 'client_id', wrap: true },
                { label: text.name, wrap: true },
                { label: text.scopes, wrap: true },
                { label: text.lastUse, wrap: true },
                { label: text.state, wrap: true },
              ]}
            >
              {credentials.map((credential) => (
                <tr key={credential.client_id} className="border-t border-slate-100" data-testid="credential-row">
                  <td className="px-3 py-2 font-mono">{credential.client_id}</td>
                  <td className="px-3 py-2">{credential.label}</td>
                  <td className="px-3 py-2 font-mono text-xs">{credential.scopes.join(' ')}</td>
                  <td className="px-3 py-2">
                    {credential.last_used_at ? businessTime(credential.last_used_at, lang, zone) : text.never}
                  </td>
                  <td className="px-3 py-2">
                    {credential.revoked_at ? (
                      <span>{text.revoked(businessTime(credential.revoked_at, lang, zone))}</span>
                    ) : canAct ? (
                      <RevokeCredential clientId={credential.client_id} />
                    ) : (
                      text.active
                    )}
                  </td>
                </tr>
              ))}
            </DataTable>
          )}
          {canAct ? <CreateCredential merchantCode={chosen} /> : null}
        </section>
      )}
      {credentials === null ? null : (
        <WebhookEndpoints endpoints={endpoints} lang={lang} zone={zone} canAct={canAct} merchantCode={chosen} />
      )}
      <section aria-labelledby="deliveries" className="space-y-3">
        <h2 id="deliveries" className="text-lg font-semibold">
          {text.log}
        </h2>
        <p className="text-sm text-slate-600">{text.logHint}</p>
        <Suspense>
          <UrlFilters
            label={text.logFilter}
            keep={platform ? ['merchant'] : []}
            fields={[
              {
                name: 'status',
                label: text.status,
                kind: 'select',
                options: [{ value: '', label: text.all }, ...CALLBACK_STATUSES.map((value) => ({ value, label: value }))],
              },
            ]}
          />
        </Suspense>
        {deliveries === null ? (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-red-800">
            {statusValid ? text.logFailed : text.logInvalid}
          </p>
        ) : deliveries.rows.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">
            {text.logEmpty}
          </p>
        ) : (
          <CallbackEventsTable events={deliveries.rows} lang={lang} zone={zone} canResend={canAct} log showMerchant={platform} />
        )}
        {deliveries?.nextCursor ? <NextPageLink href={`/developers?${older.toString()}`} label={text.next} /> : null}
      </section>
    </div>
  );
}
