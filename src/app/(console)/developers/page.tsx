import type { Metadata } from 'next';
import { Suspense } from 'react';
import { consoleCaller, requireConsoleSession } from '@/server/console-session-server';
import { limaTime } from '../../console-ui/format';
import { UrlFilters } from '../../console-ui/url-filters';
import { CreateCredential, RevokeCredential } from './credential-actions';

export const metadata: Metadata = { title: 'Desarrolladores — consola de pagos' };

type Props = { searchParams: Promise<{ merchant?: string }> };

export default async function DevelopersPage({ searchParams }: Props) {
  const { merchant } = await searchParams;
  const session = await requireConsoleSession();
  const caller = await consoleCaller(session);
  const platform = session.role === 'PLATFORM_ADMIN' || session.role === 'SUPPORT';
  const canAct = session.role === 'PLATFORM_ADMIN' || session.role === 'MERCHANT_ADMIN';
  const chosen = platform ? merchant?.trim() || undefined : undefined;
  const credentials = !platform || chosen ? await caller.console.credentials({ merchantCode: chosen }).catch(() => null) : null;
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Desarrolladores</h1>
      <section className="space-y-1 text-sm">
        <p>
          <a className="text-blue-800 underline" href="/docs">
            Referencia de la API
          </a>{' '}
          ·{' '}
          <a className="text-blue-800 underline" href="/api/openapi.json">
            Documento OpenAPI
          </a>{' '}
          ·{' '}
          <a className="text-blue-800 underline" href="/api/webhooks/public-key" download="callbacks-public-key.pem">
            Descargar la clave pública de los callbacks
          </a>
        </p>
        <p className="text-slate-600">Cada callback lleva la cabecera signature: RSA-SHA512 en base64 sobre el cuerpo exacto.</p>
      </section>
      {platform ? (
        <Suspense>
          <UrlFilters label="Elegir comercio" fields={[{ name: 'merchant', label: 'Código de comercio', kind: 'text' }]} />
        </Suspense>
      ) : null}
      {credentials === null ? (
        <p className="text-slate-600">
          {platform && !chosen ? 'Elige un comercio para ver sus credenciales.' : 'No existe ese comercio.'}
        </p>
      ) : (
        <section aria-labelledby="credentials" className="space-y-3">
          <h2 id="credentials" className="text-lg font-semibold">
            Credenciales de la API
          </h2>
          {credentials.length === 0 ? (
            <p className="text-slate-600">Este comercio aún no tiene credenciales.</p>
          ) : (
            <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
              <table className="min-w-full text-sm">
                <thead className="bg-slate-50 text-left text-slate-600">
                  <tr>
                    <th scope="col" className="px-3 py-2">
                      client_id
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Nombre
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Scopes
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Último uso
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Estado
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {credentials.map((credential) => (
                    <tr key={credential.client_id} className="border-t border-slate-100" data-testid="credential-row">
                      <td className="px-3 py-2 font-mono">{credential.client_id}</td>
                      <td className="px-3 py-2">{credential.label}</td>
                      <td className="px-3 py-2 font-mono text-xs">{credential.scopes.join(' ')}</td>
                      <td className="px-3 py-2">{credential.last_used_at ? limaTime(credential.last_used_at) : 'nunca'}</td>
                      <td className="px-3 py-2">
                        {credential.revoked_at ? (
                          <span>Revocada {limaTime(credential.revoked_at)}</span>
                        ) : canAct ? (
                          <RevokeCredential clientId={credential.client_id} />
                        ) : (
                          'Activa'
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {canAct ? <CreateCredential merchantCode={chosen} /> : null}
        </section>
      )}
    </div>
  );
}
