'use client';

import { useConsoleLang } from '../../../console-ui/lang-context';

// What the merchant sets at the processor once an account is connected (or its Culqi credentials
// renewed): the URL of the account's notifications and, for Culqi, the HTTP Basic credentials the
// service made, shown this once (docs/processors/culqi.md, "Connecting an account").

export type ShownOnce = {
  account: { name: string; processor: string; notificationUrl: string };
  credentials: { username: string; password: string } | null;
};

const TEXT = {
  es: {
    connected: (name: string) => `Cuenta ${name} conectada.`,
    culqi:
      'En CulqiPanel > Eventos > Webhooks, agrega el evento order.status.changed con esta URL y activa la autenticación básica con este usuario y contraseña:',
    mercadopago:
      'Mercado Pago avisa a esta URL de cada pago que la cuenta haga (el servicio la envía con cada pago); los avisos se verifican con la clave secreta de webhooks:',
    url: 'URL',
    user: 'Usuario',
    password: 'Contraseña',
    once: 'La contraseña se muestra solo esta vez: cópiala ahora.',
  },
  en: {
    connected: (name: string) => `Account ${name} connected.`,
    culqi:
      'In CulqiPanel > Eventos > Webhooks, add the order.status.changed event with this URL and turn on basic authentication with this user and password:',
    mercadopago:
      'Mercado Pago notifies this URL of every payment the account makes (the service sends it with each payment); the notifications are verified with the webhook secret:',
    url: 'URL',
    user: 'User',
    password: 'Password',
    once: 'The password is shown only this once: copy it now.',
  },
};

export function WebhookSetup({ shown }: { shown: ShownOnce }) {
  const text = TEXT[useConsoleLang()];
  const { account, credentials } = shown;
  return (
    <div
      role="status"
      className="space-y-2 rounded-lg border border-emerald-300 bg-emerald-50 p-3 text-sm"
      data-testid="webhook-setup"
    >
      <p className="font-semibold">{text.connected(account.name)}</p>
      <p>{account.processor === 'culqi' ? text.culqi : text.mercadopago}</p>
      <dl className="grid gap-1 sm:grid-cols-[auto_1fr]">
        <dt className="font-medium">{text.url}</dt>
        <dd className="font-mono break-all" data-testid="setup-url">
          {account.notificationUrl}
        </dd>
        {credentials ? (
          <>
            <dt className="font-medium">{text.user}</dt>
            <dd className="font-mono" data-testid="setup-user">
              {credentials.username}
            </dd>
            <dt className="font-medium">{text.password}</dt>
            <dd className="font-mono break-all" data-testid="setup-password">
              {credentials.password}
            </dd>
          </>
        ) : null}
      </dl>
      {credentials ? <p className="font-medium text-amber-900">{text.once}</p> : null}
    </div>
  );
}
