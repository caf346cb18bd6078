'use client';

import { useTranslations } from 'next-intl';

// What the merchant sets at the processor once an account is connected (or its Culqi credentials
// renewed): the URL of the account's notifications and, for Culqi, the HTTP Basic credentials the
// service made, shown this once (docs/processors/culqi.md, "Connecting an account").

export type ShownOnce = {
  account: { name: string; processor: 'culqi' | 'mercadopago' | 'niubiz' | 'izipay'; notificationUrl: string };
  credentials: { username: string; password: string } | null;
};

export function WebhookSetup({ shown }: { shown: ShownOnce }) {
  const t = useTranslations('processors.accounts.webhookSetup');
  const { account, credentials } = shown;
  return (
    <div
      role="status"
      className="space-y-2 rounded-lg border border-emerald-300 bg-emerald-50 p-3 text-sm"
      data-testid="webhook-setup"
    >
      <p className="font-semibold">{t('connected', { name: account.name })}</p>
      <p>{t(`instructions.${account.processor}`)}</p>
      <dl className="grid gap-1 sm:grid-cols-[auto_1fr]">
        <dt className="font-medium">{t('url')}</dt>
        <dd className="font-mono break-all" data-testid="setup-url">
          {account.notificationUrl}
        </dd>
        {credentials ? (
          <>
            <dt className="font-medium">{t('user')}</dt>
            <dd className="font-mono" data-testid="setup-user">
              {credentials.username}
            </dd>
            <dt className="font-medium">{t('password')}</dt>
            <dd className="font-mono break-all" data-testid="setup-password">
              {credentials.password}
            </dd>
          </>
        ) : null}
      </dl>
      {credentials ? <p className="font-medium text-amber-900">{t('once')}</p> : null}
    </div>
  );
}
