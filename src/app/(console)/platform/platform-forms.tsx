'use client';

import { useRouter } from 'next/navigation';
import { consoleClient } from '../../console-ui/trpc-client';
import { useConsoleLang } from '../../console-ui/lang-context';
import { SimpleForm } from '../../console-ui/simple-form';

// The platform admin's forms: a new merchant, a new facilitator, a merchant linked to a facilitator.
const CODE_PATTERN = '[A-Za-z0-9_\\-]{1,64}';

const TEXT = {
  es: {
    code: 'Código',
    codeHint: 'Letras, dígitos, - o _; no se puede cambiar después.',
    name: 'Nombre',
    facilitator: 'Facilitador (opcional)',
    linkFacilitator: 'Facilitador',
    none: 'Ninguno',
    merchant: 'Código de comercio',
    newMerchant: 'Nuevo comercio',
    createMerchant: 'Crear comercio',
    merchantTaken: 'Ya existe un comercio con ese código.',
    newFacilitator: 'Nuevo facilitador',
    createFacilitator: 'Crear facilitador',
    facilitatorTaken: 'Ya existe un facilitador con ese código.',
    linkTitle: 'Vincular un comercio',
    linkHint: 'Las credenciales del facilitador actuarán por el comercio.',
    link: 'Vincular',
    missing: 'No existe ese comercio o facilitador.',
  },
  en: {
    code: 'Code',
    codeHint: 'Letters, digits, - or _; it cannot be changed later.',
    name: 'Name',
    facilitator: 'Facilitator (optional)',
    linkFacilitator: 'Facilitator',
    none: 'None',
    merchant: 'Merchant code',
    newMerchant: 'New merchant',
    createMerchant: 'Create merchant',
    merchantTaken: 'A merchant with that code already exists.',
    newFacilitator: 'New facilitator',
    createFacilitator: 'Create facilitator',
    facilitatorTaken: 'A facilitator with that code already exists.',
    linkTitle: 'Link a merchant',
    linkHint: 'The facilitator’s credentials will act for the merchant.',
    link: 'Link',
    missing: 'That merchant or facilitator does not exist.',
  },
};

const both = (key: 'merchantTaken' | 'facilitatorTaken' | 'missing') => ({ es: TEXT.es[key], en: TEXT.en[key] });

export function CreateMerchantForm({ facilitatorCodes }: { facilitatorCodes: string[] }) {
  const text = TEXT[useConsoleLang()];
  const router = useRouter();
  return (
    <SimpleForm
      id="new-merchant"
      title={text.newMerchant}
      submitLabel={text.createMerchant}
      known={{ CONFLICT: both('merchantTaken'), NOT_FOUND: both('missing') }}
      fields={[
        { name: 'code', label: text.code, required: true, maxLength: 64, pattern: CODE_PATTERN, hint: text.codeHint },
        { name: 'name', label: text.name, required: true, maxLength: 128 },
        {
          name: 'facilitatorCode',
          label: text.facilitator,
          options: [{ value: '', label: text.none }, ...facilitatorCodes.map((code) => ({ value: code, label: code }))],
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
  const text = TEXT[useConsoleLang()];
  return (
    <SimpleForm
      id="new-facilitator"
      title={text.newFacilitator}
      submitLabel={text.createFacilitator}
      known={{ CONFLICT: both('facilitatorTaken') }}
      fields={[
        { name: 'code', label: text.code, required: true, maxLength: 64, pattern: CODE_PATTERN, hint: text.codeHint },
        { name: 'name', label: text.name, required: true, maxLength: 128 },
      ]}
      call={(values) => consoleClient.console.platform.createFacilitator.mutate({ code: values.code!, name: values.name! })}
      done={(_, form) => form.reset()}
    />
  );
}

export function LinkMerchantForm({ facilitatorCodes }: { facilitatorCodes: string[] }) {
  const text = TEXT[useConsoleLang()];
  return (
    <SimpleForm
      id="link-merchant"
      title={text.linkTitle}
      submitLabel={text.link}
      known={{ NOT_FOUND: both('missing') }}
      fields={[
        {
          name: 'facilitatorCode',
          label: text.linkFacilitator,
          options: facilitatorCodes.map((code) => ({ value: code, label: code })),
        },
        { name: 'merchantCode', label: text.merchant, required: true, maxLength: 64, pattern: CODE_PATTERN, hint: text.linkHint },
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
