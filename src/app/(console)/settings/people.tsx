import type { MerchantUserView } from '@/server/modules/access/merchant-users';
import type { ConsoleLang } from '../../console-ui/i18n';
import { businessTime, zoneName } from '../../console-ui/format';
import { CELL, DataTable, EmptyState } from '../../console-ui/table';
import { ROLE_NAMES } from './roles';
import { UserActions } from './user-actions';

const TEXT = {
  es: {
    caption: 'Usuarios de la consola de este comercio',
    email: 'Correo',
    name: 'Nombre',
    role: 'Rol',
    created: (zone: string) => `Creado (${zoneName(zone)})`,
    status: 'Estado',
    actions: 'Acciones',
    active: 'Activo',
    disabled: (at: string) => `Desactivado ${at}`,
    you: '(tú)',
    self: 'No puedes cambiar tu propio rol ni desactivarte.',
    empty: 'Este comercio aún no tiene usuarios de consola.',
  },
  en: {
    caption: 'Console users of this merchant',
    email: 'Email',
    name: 'Name',
    role: 'Role',
    created: (zone: string) => `Created (${zoneName(zone)})`,
    status: 'Status',
    actions: 'Actions',
    active: 'Active',
    disabled: (at: string) => `Disabled ${at}`,
    you: '(you)',
    self: 'You cannot change your own role or disable yourself.',
    empty: 'This merchant has no console users yet.',
  },
};

type Props = { users: MerchantUserView[]; canEdit: boolean; selfUserId: string | null; lang: ConsoleLang; zone: string };

export function People({ users, canEdit, selfUserId, lang, zone }: Props) {
  const text = TEXT[lang];
  if (users.length === 0) return <EmptyState text={text.empty} />;
  const headers = [text.email, text.name, text.role, text.created(zone), text.status, ...(canEdit ? [text.actions] : [])];
  return (
    <DataTable caption={text.caption} columns={headers}>
      {users.map((user) => {
        const self = user.id === selfUserId;
        return (
          <tr key={user.id} className="border-t border-slate-100" data-testid="user-row">
            <td className={`${CELL} break-all`}>
              {user.email} {self ? <span className="text-slate-600">{text.you}</span> : null}
            </td>
            <td className={CELL} data-testid="user-name">
              {user.name}
            </td>
            <td className={CELL}>{ROLE_NAMES[lang][user.role]}</td>
            <td className={`${CELL} whitespace-nowrap`}>{businessTime(user.createdAt, lang, zone)}</td>
            <td className={CELL} data-testid="user-status">
              {user.disabledAt ? text.disabled(businessTime(user.disabledAt, lang, zone)) : text.active}
            </td>
            {canEdit ? (
              <td className={CELL}>
                {self ? (
                  <span className="text-slate-600">{text.self}</span>
                ) : (
                  <UserActions
                    key={`${user.role}-${user.disabledAt ?? ''}`}
                    userId={user.id}
                    email={user.email}
                    role={user.role}
                    disabled={user.disabledAt !== null}
                  />
                )}
              </td>
            ) : null}
          </tr>
        );
      })}
    </DataTable>
  );
}
