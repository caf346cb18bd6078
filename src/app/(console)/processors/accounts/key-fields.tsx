'use client';

import { useTranslations } from 'next-intl';
import { Field, INPUT } from '../../../console-ui/form-kit';
import { formText } from '../../../console-ui/form-text';

// A processor account's keys as the forms take them (connecting one, replacing its keys): the
// public key (Niubiz's merchant code, Izipay's shop id) and Niubiz's API user in the clear, the
// secret key and Mercado Pago's webhook secret in password fields, never filled in again and
// never sent back by the service.

export type KeyedProcessor = 'culqi' | 'mercadopago' | 'niubiz' | 'izipay';

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

export function KeyFields({ id, processor }: { id: string; processor: KeyedProcessor }) {
  const t = useTranslations('processors.accounts.keyFields');
  return (
    <>
      <Field id={`${id}-public`} label={t(`publicKey.${processor}`)} hint={t(`keysHint.${processor}`)}>
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
      {processor === 'niubiz' ? (
        <Field id={`${id}-user`} label={t('apiUser')}>
          <input
            id={`${id}-user`}
            name="apiUser"
            type="email"
            required
            autoComplete="off"
            spellCheck={false}
            className={`${INPUT} font-mono`}
          />
        </Field>
      ) : null}
      <Field id={`${id}-secret`} label={t(`secretKey.${processor}`)}>
        <SecretInput id={`${id}-secret`} name="secretKey" />
      </Field>
      {processor === 'niubiz' ? (
        <Field id={`${id}-tax`} label={t('taxId')} hint={t('taxIdHint')}>
          <input
            id={`${id}-tax`}
            name="taxId"
            inputMode="numeric"
            pattern="[0-9]{11}"
            maxLength={11}
            autoComplete="off"
            className={`${INPUT} font-mono`}
            aria-describedby={`${id}-tax-hint`}
          />
        </Field>
      ) : null}
      {processor === 'mercadopago' ? (
        <Field id={`${id}-webhook`} label={t('webhookSecret')} hint={t('webhookSecretHint')}>
          <SecretInput id={`${id}-webhook`} name="webhookSecret" hinted />
        </Field>
      ) : null}
    </>
  );
}

/** The form's keys of `processor` beyond the public and secret ones, as the procedure takes them. */
export function keysOf(processor: KeyedProcessor, form: FormData) {
  switch (processor) {
    case 'mercadopago':
      return { processor, webhookSecret: formText(form, 'webhookSecret').trim() };
    case 'niubiz': {
      const taxId = formText(form, 'taxId').trim();
      return { processor, apiUser: formText(form, 'apiUser').trim(), ...(taxId ? { taxId } : {}) };
    }
    default:
      return { processor };
  }
}
