'use client';

import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { consoleClient } from '../../console-ui/trpc-client';
import { useErrorMessage } from '../../console-ui/use-console-action';
import { formText } from '../../console-ui/form-text';
import { SCOPES } from '@/server/core/domain/scopes';

export function CreateCredential({ merchantCode }: { merchantCode?: string }) {
  const errorText = useErrorMessage();
  const t = useTranslations('developers.credentialActions');
  const router = useRouter();
  const [issued, setIssued] = useState<{ client_id: string; client_secret: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  if (issued) {
    return (
      <div
        role="status"
        className="space-y-2 rounded-lg border border-emerald-300 bg-emerald-50 p-3"
        data-testid="issued-credential"
      >
        <p className="font-semibold">{t('created')}</p>
        <p className="text-sm">
          client_id <code className="font-mono">{issued.client_id}</code>
        </p>
        <p className="text-sm">
          client_secret{' '}
          <code className="font-mono break-all" data-testid="client-secret">
            {issued.client_secret}
          </code>{' '}
          <button
            type="button"
            className="ml-2 rounded border border-slate-300 bg-white px-2 py-0.5 text-xs"
            onClick={() => void navigator.clipboard?.writeText(issued.client_secret).then(() => setCopied(true))}
          >
            {copied ? t('copied') : t('copy')}
          </button>
        </p>
        <button
          type="button"
          className="rounded-md border border-slate-300 bg-white px-3 py-1 text-sm"
          onClick={() => setIssued(null)}
        >
          {t('done')}
        </button>
      </div>
    );
  }
  return (
    <form
      className="space-y-2 rounded-lg border border-slate-200 bg-white p-3"
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        const scopes = SCOPES.filter((scope) => form.get(scope) === 'on');
        consoleClient.console.issueCredential.mutate({ merchantCode, scopes, label: formText(form, 'label') }).then(
          (credential) => {
            setError(null);
            setIssued(credential);
            router.refresh();
          },
          (failure: unknown) => setError(errorText(failure)),
        );
      }}
    >
      <h2 className="font-semibold">{t('heading')}</h2>
      <label className="block text-sm">
        {t('name')}
        <input name="label" maxLength={128} className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1.5" />
      </label>
      <fieldset className="flex flex-wrap gap-4 text-sm">
        <legend className="mb-1">{t('scopes')}</legend>
        {SCOPES.map((scope) => (
          <label key={scope} className="flex items-center gap-1">
            <input type="checkbox" name={scope} defaultChecked /> <code>{scope}</code>
          </label>
        ))}
      </fieldset>
      {error ? (
        <p role="alert" className="text-sm text-red-800">
          {error}
        </p>
      ) : null}
      <button type="submit" className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-semibold text-white">
        {t('create')}
      </button>
    </form>
  );
}

export function RevokeCredential({ clientId }: { clientId: string }) {
  const errorText = useErrorMessage();
  const t = useTranslations('developers.credentialActions');
  const router = useRouter();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!confirming) {
    return (
      <button type="button" className="text-sm text-red-800 underline" onClick={() => setConfirming(true)}>
        {t('revoke')}
      </button>
    );
  }
  return (
    <span className="flex flex-wrap items-center gap-2 text-sm">
      {t('revokeWarning')}
      <button
        type="button"
        className="rounded bg-red-700 px-2 py-0.5 font-semibold text-white"
        onClick={() =>
          void consoleClient.console.revokeCredential.mutate({ clientId }).then(
            () => router.refresh(),
            (failure: unknown) => setError(errorText(failure)),
          )
        }
      >
        {t('revokeConfirm', { clientId })}
      </button>
      <button type="button" className="underline" onClick={() => setConfirming(false)}>
        {t('no')}
      </button>
      {error ? (
        <span role="alert" className="text-red-800">
          {error}
        </span>
      ) : null}
    </span>
  );
}
