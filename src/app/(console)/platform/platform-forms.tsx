'use client';

import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { consoleClient } from '../../console-ui/trpc-client';
import { SimpleForm } from '../../console-ui/simple-form';

// The platform admin's forms: a new merchant, a new facilitator, a merchant linked to a facilitator.
const CODE_PATTERN = '[A-Za-z0-9_\\-]{1,64}';

export function CreateMerchantForm({ facilitatorCodes }: { facilitatorCodes: string[] }) {
  const t = useTranslations('platform.platformForms');
  const router = useRouter();
  return (
    <SimpleForm
      id="new-merchant"
      title={t('newMerchant')}
      submitLabel={t('createMerchant')}
      known={{ CONFLICT: t('merchantTaken'), NOT_FOUND: t('missing') }}
      fields={[
        { name: 'code', label: t('code'), required: true, maxLength: 64, pattern: CODE_PATTERN, hint: t('codeHint') },
        { name: 'name', label: t('name'), required: true, maxLength: 128 },
        {
          name: 'facilitatorCode',
          label: t('facilitator'),
          options: [{ value: '', label: t('none') }, ...facilitatorCodes.map((code) => ({ value: code, label: code }))],
        },
      ]}
      call={(values) =>
        consoleClient.console.platform.createMerchant.mutate({
          code: values.code!,
          name: values.name!,
          facilitatorCode: values.facilitatorCode || undefined,
        })
      }
      done={(merchant) => router.push(`/platform/merchants/${encodeURIComponent(merchant.code)}`)}
    />
  );
}

export function CreateFacilitatorForm() {
  const t = useTranslations('platform.platformForms');
  return (
    <SimpleForm
      id="new-facilitator"
      title={t('newFacilitator')}
      submitLabel={t('createFacilitator')}
      known={{ CONFLICT: t('facilitatorTaken') }}
      fields={[
        { name: 'code', label: t('code'), required: true, maxLength: 64, pattern: CODE_PATTERN, hint: t('codeHint') },
        { name: 'name', label: t('name'), required: true, maxLength: 128 },
      ]}
      call={(values) => consoleClient.console.platform.createFacilitator.mutate({ code: values.code!, name: values.name! })}
      done={(_, form) => form.reset()}
    />
  );
}

export function LinkMerchantForm({ facilitatorCodes }: { facilitatorCodes: string[] }) {
  const t = useTranslations('platform.platformForms');
  return (
    <SimpleForm
      id="link-merchant"
      title={t('linkTitle')}
      submitLabel={t('link')}
      known={{ NOT_FOUND: t('missing') }}
      fields={[
        {
          name: 'facilitatorCode',
          label: t('linkFacilitator'),
          options: facilitatorCodes.map((code) => ({ value: code, label: code })),
        },
        { name: 'merchantCode', label: t('merchant'), required: true, maxLength: 64, pattern: CODE_PATTERN, hint: t('linkHint') },
      ]}
      call={(values) =>
        consoleClient.console.platform.linkMerchant.mutate({
          facilitatorCode: values.facilitatorCode!,
          merchantCode: values.merchantCode!,
        })
      }
      done={(_, form) => form.reset()}
    />
  );
}
