'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { CopyButton } from '../../pay/ui/copy-button';
import { consoleClient } from '../../console-ui/trpc-client';
import { SECONDARY_BUTTON } from '../../console-ui/buttons';
import { SimpleForm } from '../../console-ui/simple-form';
import { MERCHANT_ROLES, type MerchantRole } from './roles';

export function AddUserForm({ merchantCode }: { merchantCode?: string }) {
  const roles = useTranslations('settings');
  const t = useTranslations('settings.addUserForm');
  const [created, setCreated] = useState<{ email: string; password: string } | null>(null);
  if (created) {
    return (
      <div role="status" className="space-y-2 rounded-lg border border-emerald-300 bg-emerald-50 p-3" data-testid="new-user">
        <p className="font-semibold">{t('created', { email: created.email })}</p>
        <p className="text-sm">
          {t('password')}:{' '}
          <code className="font-mono text-base break-all" data-testid="new-user-password">
            {created.password}
          </code>
        </p>
        <p className="text-sm">{t('once')}</p>
        <div className="flex flex-wrap items-center gap-2">
          <CopyButton value={created.password} label={t('copy')} copiedLabel={t('copied')} manualLabel={t('manual')} />
          <button type="button" className={SECONDARY_BUTTON} onClick={() => setCreated(null)}>
            {t('done')}
          </button>
        </div>
      </div>
    );
  }
  return (
    <SimpleForm
      id="add-user-title"
      title={t('title')}
      submitLabel={t('add')}
      known={{ CONFLICT: t('taken') }}
      fields={[
        { name: 'email', label: t('email'), type: 'email', required: true, maxLength: 254 },
        { name: 'name', label: t('name'), maxLength: 128 },
        {
          name: 'role',
          label: t('role'),
          defaultValue: 'MERCHANT_VIEWER',
          options: MERCHANT_ROLES.map((role) => ({ value: role, label: roles(`roles.${role}`) })),
        },
      ]}
      call={(values) =>
        consoleClient.console.settings.addUser.mutate({
          merchantCode,
          email: values.email!,
          name: values.name!,
          role: values.role as MerchantRole,
        })
      }
      done={(result) => setCreated({ email: result.user.email, password: result.password })}
    />
  );
}
