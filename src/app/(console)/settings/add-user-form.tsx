'use client';

import { useState } from 'react';
import { CopyButton } from '../../pay/ui/copy-button';
import { consoleClient } from '../../console-ui/trpc-client';
import { SECONDARY_BUTTON } from '../../console-ui/buttons';
import { SimpleForm } from '../../console-ui/simple-form';
import { useConsoleLang } from '../../console-ui/lang-context';
import { MERCHANT_ROLES, ROLE_NAMES, type MerchantRole } from './roles';

const TEXT = {
  es: {
    title: 'Agregar usuario',
    email: 'Correo',
    name: 'Nombre',
    role: 'Rol',
    add: 'Agregar usuario',
    created: (email: string) => `Usuario ${email} creado.`,
    password: 'Contraseña inicial',
    once: 'Entrégala por un canal seguro: no se volverá a mostrar. Solo se guarda su hash.',
    copy: 'Copiar',
    copied: 'Copiado',
    manual: 'Selecciona la contraseña y cópiala.',
    done: 'Listo',
    taken: 'Ya existe un usuario con ese correo.',
  },
  en: {
    title: 'Add a user',
    email: 'Email',
    name: 'Name',
    role: 'Role',
    add: 'Add user',
    created: (email: string) => `User ${email} created.`,
    password: 'First password',
    once: 'Hand it over through a safe channel: it will not be shown again. Only its hash is stored.',
    copy: 'Copy',
    copied: 'Copied',
    manual: 'Select the password and copy it.',
    done: 'Done',
    taken: 'A user with that email already exists.',
  },
};

export function AddUserForm({ merchantCode }: { merchantCode?: string }) {
  const lang = useConsoleLang();
  const text = TEXT[lang];
  const [created, setCreated] = useState<{ email: string; password: string } | null>(null);
  if (created) {
    return (
      <div role="status" className="space-y-2 rounded-lg border border-emerald-300 bg-emerald-50 p-3" data-testid="new-user">
        <p className="font-semibold">{text.created(created.email)}</p>
        <p className="text-sm">
          {text.password}:{' '}
          <code className="font-mono text-base break-all" data-testid="new-user-password">
            {created.password}
          </code>
        </p>
        <p className="text-sm">{text.once}</p>
        <div className="flex flex-wrap items-center gap-2">
          <CopyButton value={created.password} label={text.copy} copiedLabel={text.copied} manualLabel={text.manual} />
          <button type="button" className={SECONDARY_BUTTON} onClick={() => setCreated(null)}>
            {text.done}
          </button>
        </div>
      </div>
    );
  }
  return (
    <SimpleForm
      id="add-user-title"
      title={text.title}
      submitLabel={text.add}
      known={{ CONFLICT: { es: TEXT.es.taken, en: TEXT.en.taken } }}
      fields={[
        { name: 'email', label: text.email, type: 'email', required: true, maxLength: 254 },
        { name: 'name', label: text.name, maxLength: 128 },
        {
          name: 'role',
          label: text.role,
          defaultValue: 'MERCHANT_VIEWER',
          options: MERCHANT_ROLES.map((role) => ({ value: role, label: ROLE_NAMES[lang][role] })),
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
