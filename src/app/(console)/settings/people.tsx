import { useFormatter, useTranslations } from 'next-intl';
import type { MerchantUserView } from '@/server/modules/access/merchant-users';
import { businessTime, zoneName } from '../../console-ui/format';
import { CELL, DataTable, EmptyState } from '../../console-ui/table';
import { UserActions } from './user-actions';

type Props = { users: MerchantUserView[]; canEdit: boolean; selfUserId: string | null; zone: string };

export function People({ users, canEdit, selfUserId, zone }: Props) {
  const t = useTranslations('settings.people');
  const roles = useTranslations('settings');
  const format = useFormatter();
  if (users.length === 0) return <EmptyState text={t('empty')} />;
  const headers = [
    t('email'),
    t('name'),
    t('role'),
    t('created', { zone: zoneName(zone) }),
    t('status'),
    ...(canEdit ? [t('actions')] : []),
  ];
  return (
    <DataTable caption={t('caption')} columns={headers}>
      {users.map((user) => {
        const self = user.id === selfUserId;
        return (
          <tr key={user.id} className="border-t border-slate-100" data-testid="user-row">
            <td className={`${CELL} break-words`}>
              {user.email} {self ? <span className="text-slate-600">{t('you')}</span> : null}
            </td>
            <td className={CELL} data-testid="user-name">
              {user.name}
            </td>
            <td className={CELL}>{roles(`roles.${user.role}`)}</td>
            <td className={`${CELL} whitespace-nowrap`}>{businessTime(format, user.createdAt)}</td>
            <td className={CELL} data-testid="user-status">
              {user.disabledAt ? t('disabled', { at: businessTime(format, user.disabledAt) }) : t('active')}
            </td>
            {canEdit ? (
              <td className={CELL}>
                {self ? (
                  <span className="text-slate-600">{t('self')}</span>
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
