'use client';

import { Field, INPUT } from '../../../console-ui/form-kit';
import { useConsoleLang } from '../../../console-ui/lang-context';

// A processor account's keys as the forms take them (connecting one, replacing its keys): the
// public key in the clear, the secret key and Mercado Pago's webhook secret in password fields,
// never filled in again and never sent back by the service.

const TEXT = {
  es: {
    publicKey: 'Llave pública',
    secretKey: { culqi: 'Llave secreta', mercadopago: 'Access token' },
    keysHint: {
      culqi: 'CulqiPanel > Desarrollo > API Keys: pk_test_… y sk_test_… (pk_live_… y sk_live_… en producción).',
      mercadopago: 'Tus integraciones > Credenciales: la Public Key y el Access Token de la aplicación.',
    },
    webhookSecret: 'Clave secreta de webhooks',
    webhookSecretHint: 'Tus integraciones > Webhooks: la clave que Mercado Pago generó al guardar la configuración.',
  },
  en: {
    publicKey: 'Public key',
    secretKey: { culqi: 'Secret key', mercadopago: 'Access token' },
    keysHint: {
      culqi: 'CulqiPanel > Desarrollo > API Keys: pk_test_… and sk_test_… (pk_live_… and sk_live_… when live).',
      mercadopago: "Your integrations > Credentials: the application's Public Key and Access Token.",
    },
    webhookSecret: 'Webhook secret',
    webhookSecretHint: 'Your integrations > Webhooks: the key Mercado Pago made when the configuration was saved.',
  },
};

function SecretInput({ id, name, hinted = false }: { id: string; name: string; hinted?: boolean }) {
  return (
    <input
      id={id}
      name={name}
      type="password"
      required
      autoComplete="new-password"
      spellCheck={false}
      className={`${INPUT} font-mono`}
      aria-describedby={hinted ? `${id}-hint` : undefined}
    />
  );
}

export function KeyFields({ id, processor }: { id: string; processor: 'culqi' | 'mercadopago' }) {
  const text = TEXT[useConsoleLang()];
  return (
    <>
      <Field id={`${id}-public`} label={text.publicKey} hint={text.keysHint[processor]}>
        <input
          id={`${id}-public`}
          name="publicKey"
          required
          autoComplete="off"
          spellCheck={false}
          className={`${INPUT} font-mono`}
          aria-describedby={`${id}-public-hint`}
        />
      </Field>
      <Field id={`${id}-secret`} label={text.secretKey[processor]}>
        <SecretInput id={`${id}-secret`} name="secretKey" />
      </Field>
      {processor === 'mercadopago' ? (
        <Field id={`${id}-webhook`} label={text.webhookSecret} hint={text.webhookSecretHint}>
          <SecretInput id={`${id}-webhook`} name="webhookSecret" hinted />
        </Field>
      ) : null}
    </>
  );
}
